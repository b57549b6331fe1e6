"""Helpers shared by the engine tests: deals written as card text, and driving a game
through time the way the page does (one frame after each scheduled happening)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ewar.cards import card_name, parse_card
from ewar.deal import Deal
from ewar.errors import GameOverError, NotYourTurnError
from ewar.game import _COLLECT, _FLIP, _SLAP, Game
from ewar.table import Table

SOUTH, WEST, NORTH, EAST = range(4)
SEAT_NAMES = ("south", "west", "north", "east")


def cards(text: str) -> list[int]:
    """Cards from text, top of the pack first: ``cards("7H 10S")``."""
    return [parse_card(word) for word in text.split()]


def names(seq) -> list[str]:
    """The text forms of a sequence of card ints."""
    return [card_name(card) for card in seq]


def make_table(
    south: str = "",
    west: str = "",
    north: str = "",
    east: str = "",
    *,
    first: int = SOUTH,
    lenient: bool = False,
) -> Table:
    """A table with these packs (top card first) and this first player."""
    return Table([cards(south), cards(west), cards(north), cards(east)], first, lenient=lenient)


def make_deal(
    south: str = "", west: str = "", north: str = "", east: str = "", *, first: int = SOUTH
) -> Deal:
    return Deal(tuple(tuple(cards(pack)) for pack in (south, west, north, east)), first)


def make_game(
    south: str = "",
    west: str = "",
    north: str = "",
    east: str = "",
    *,
    first: int = SOUTH,
    seed: int = 1,
    **settings,
) -> Game:
    """A practice game on a constructed deal; ``seed`` still drives the computer players."""
    deal = make_deal(south, west, north, east, first=first)
    return Game(seed, deal_override=deal, **settings)


def step(game: Game) -> bool:
    """Let the next scheduled happening take place; False when nothing is scheduled."""
    upcoming = game.next_event_time()
    if upcoming is None:
        return False
    game.advance_to(upcoming + 1)
    return True


def run_until(game: Game, done: Callable[[Game], bool], max_steps: int = 100_000) -> None:
    """Step through scheduled happenings until ``done(game)`` (or fail)."""
    for _ in range(max_steps):
        if done(game):
            return
        if not step(game):
            break
    assert done(game), "the awaited situation never came"


def scheduled(game: Game, kind: str) -> list[tuple[int, int]]:
    """(time, seat) of the scheduled ``slap``, ``flip`` or ``collect`` happenings."""
    order = {"slap": _SLAP, "flip": _FLIP, "collect": _COLLECT}[kind]
    return [(when, seat) for when, what, seat, _ in game._queue if what == order]


def events_of(events: list[dict], kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


REPO = Path(__file__).resolve().parents[2]


def run_python(*args: str, stdin: str | None = None, hashseed: str = "0"):
    """Run this repository's engine in a fresh interpreter (never an installed copy)."""
    env = {
        "PYTHONPATH": str(REPO),
        "PYTHONHASHSEED": hashseed,
        "PATH": os.environ.get("PATH", ""),
        "PYTHONIOENCODING": "utf-8",
    }
    return subprocess.run(
        [sys.executable, *args],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        input=stdin,
        timeout=60,
    )


def random_human(game: Game, rng: random.Random) -> Game:
    """A careless human: flips after a random delay, slaps at random moments."""
    while not game.over:
        upcoming = game.next_event_time()
        if game.human_must_flip and (upcoming is None or rng.random() < 0.7):
            try:
                game.flip(game.clock + rng.randrange(0, 900))
            except (NotYourTurnError, GameOverError):
                game.advance_to(game.clock + 1)  # the game moved on before the flip
        elif rng.random() < 0.08:
            try:
                game.slap(game.clock + rng.randrange(0, 600))
            except GameOverError:
                game.advance_to(game.clock + 1)
        elif upcoming is not None:
            game.advance_to(upcoming + 1)
        else:
            game.advance_to(game.clock + 1000)
        table = game.table
        assert table.card_count() == 52
        assert table.burned <= len(table.pile)
        assert table.turn is None or table.packs[table.turn]
    return game
