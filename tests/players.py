"""A simulated human for tests and benchmarks: slaps every valid pattern after a fixed
reaction time, never wrongly, and flips a fixed time after its turn begins."""

from __future__ import annotations

from ewar.deal import SOUTH
from ewar.game import Game


def next_human_action(
    game: Game, reaction_ms: int, flip_ms: int, slapped_flip: int | None
) -> tuple[int, str] | None:
    """The simulated human's next planned action as (time, "f" | "s"), or None."""
    table = game.table
    if table.pattern() and slapped_flip != game.last_flip_ms and not table.eliminated[SOUTH]:
        return max(game.clock, game.last_flip_ms + reaction_ms), "s"  # never bury a pattern
    if game.human_must_flip:
        return max(game.clock, game.last_change_ms + flip_ms), "f"
    return None


def play_simulated_human(
    game: Game, reaction_ms: int = 450, flip_ms: int = 300, reactions: dict[int, int] | None = None
) -> Game:
    """Play ``game`` to its end with the simulated human in the South seat.

    ``reactions`` maps the time of a chosen card to another reaction time for it.
    """
    slapped_flip = None
    while not game.over:
        reaction = reactions.get(game.last_flip_ms, reaction_ms) if reactions else reaction_ms
        plan = next_human_action(game, reaction, flip_ms, slapped_flip)
        upcoming = game.next_event_time()
        if plan is not None and (upcoming is None or plan[0] <= upcoming):
            when, action = plan
            if action == "s":
                slapped_flip = game.last_flip_ms
                game.slap(when, atomic=False)
            else:
                game.flip(when, atomic=False)
        elif upcoming is not None:
            game.advance_to(upcoming + 1)
        else:
            raise RuntimeError("the game is stuck: nothing scheduled and nothing to do")
    return game
