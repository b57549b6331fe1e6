"""The engine's exceptions: one narrow ValueError subclass per kind of bad input."""


class EwarError(ValueError):
    """Base class of every error the engine raises for bad input."""

    code = "invalid"


class InvalidCardError(EwarError):
    """A card or pack could not be parsed."""

    code = "invalid_card"


class InvalidSeedError(EwarError):
    """A seed or date is not acceptable."""

    code = "invalid_seed"


class IllegalActionError(EwarError):
    """A human action that the rules do not allow at that moment."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    """The human tried to flip when it was not their turn to flip or pay."""

    code = "not_your_turn"


class TimeBeforeClockError(IllegalActionError):
    """An action or advance carried a time earlier than the game clock."""

    code = "time_before_clock"


class InvalidTimeError(IllegalActionError):
    """A time that is not a whole number of milliseconds."""

    code = "invalid_time"


class GameOverError(IllegalActionError):
    """An action arrived after the game was over."""

    code = "game_over"


class ReplayError(EwarError):
    """A replay record is malformed, tampered with or impossible."""

    code = "invalid_replay"


class EngineVersionError(ReplayError):
    """A record made by another version of the engine: it would not replay the same."""

    code = "engine_version"


class RecordRefused(EwarError):
    """The score judge refuses a daily record that replays (base of the judge's verdicts)."""

    code = "refused"


class NotDailyError(RecordRefused):
    """The record is not a daily game, or not that day's deal."""

    code = "not_daily"


class DateMismatchError(RecordRefused):
    """The record is of another day than the date it was sent for."""

    code = "date_mismatch"


class NotStandardError(RecordRefused):
    """A daily record at another speed or with the lenient house rule."""

    code = "not_standard"


class UnfinishedError(RecordRefused):
    """The game in the record is not over."""

    code = "unfinished"


class TooSoonError(RecordRefused):
    """A daily record whose game is longer than its UTC day had run when it arrived: it was
    played before the day began (or the day has not begun yet)."""

    code = "too_soon"


class ScoreMismatchError(RecordRefused):
    """The record does not score what was claimed."""

    code = "score_mismatch"


class ImpossiblePlayError(RecordRefused):
    """A valid slap sooner after its card than any person can react."""

    code = "impossible_play"


class ImplausiblePlayError(RecordRefused):
    """Timings no person produces: slaps or flips as regular, or slaps as quick, as a machine's."""

    code = "implausible_play"
