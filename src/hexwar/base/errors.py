"""Every exception the core raises, in one tree under :class:`HexwarError`.

Every one is a ``ValueError`` with a message that says why. Three families:
:class:`IllegalAction` (an action the rules forbid; the state is left as it was),
:class:`DataError` (a data file, save file or record that fails validation, with
:class:`RecordError`) and the other :class:`HexwarError` subclasses (a bad argument to a
core function), grouped below by the layer that raises them. Games subclass these.

>>> err = IllegalAction("hex 0912 is occupied", rule="S6.2")
>>> str(err)
'S6.2: hex 0912 is occupied'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ActionSyntaxError",
    "ActionTypeError",
    "ActivationError",
    "AttackRefused",
    "ChanceError",
    "CombatError",
    "ContestError",
    "ControlError",
    "CupError",
    "DataError",
    "DeploymentError",
    "GameOverError",
    "GeometryError",
    "HexwarError",
    "IllegalAction",
    "LabelError",
    "NoActionSpace",
    "NotLegalNow",
    "NothingToUndo",
    "OffMapError",
    "PieceError",
    "RecordError",
    "RemovalError",
    "RenderError",
    "ReplacementError",
    "RequestRefused",
    "ResultsError",
    "SelectionError",
    "SequenceError",
    "StackError",
    "StackingViolation",
    "StaleMemo",
    "StepError",
    "StudyError",
    "UndeclaredRead",
    "UnknownGame",
    "UnknownMovementClassError",
    "UnknownToken",
    "VictoryError",
    "WorkerFailed",
]


class HexwarError(ValueError):
    """Base class of every error hexwar raises on purpose."""


class IllegalAction(HexwarError):
    """An action the rules forbid. ``rule`` names the rule (e.g. ``"S6.2"``), if any.

    Raising it never changes the game state: checks happen before any mutation.
    """

    def __init__(self, reason: str, *, rule: str | None = None) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{rule}: {reason}" if rule else reason)


class DataError(HexwarError):
    """A data file (or in-memory data) that fails validation.

    ``source`` names the file (or ``"<data>"``) and ``entry`` the offending entry, so the
    message points at the line an author must fix.

    >>> str(DataError("unknown terrain 'swamp'", source="map.toml", entry="cells[3]"))
    "map.toml: cells[3]: unknown terrain 'swamp'"
    """

    def __init__(self, reason: str, *, source: str = "<data>", entry: str | None = None) -> None:
        self.reason = reason
        self.source = source
        self.entry = entry
        where = f"{source}: {entry}" if entry else source
        super().__init__(f"{where}: {reason}")


# -- the grid (geometry, square) ---------------------------------------------------------


class GeometryError(HexwarError):
    """Bad geometric input: a negative radius, hexes that are not adjacent, a bad label, ..."""


class LabelError(HexwarError):
    """Labels that are not unique, or a label that names no square."""


# -- the engine (actions, dice, memo, records, sequencer, space) -------------------------


class ActionSyntaxError(HexwarError):
    """A text that is not the text form of any action."""


class ActionTypeError(ActionSyntaxError, TypeError):
    """A value that is neither an action nor a text (``apply(b"end")``): a
    :class:`HexwarError` that is a ``TypeError`` too."""


class NotLegalNow(IllegalAction):
    """The action is not among the legal actions of the state (the reason says why)."""


class GameOverError(IllegalAction):
    """An action was applied to a finished game."""


class NothingToUndo(HexwarError):
    """``undo()`` on a state with no undoable action."""


class ChanceError(HexwarError):
    """A malformed chance event, or a forced roll that cannot be used."""


class UndeclaredRead(HexwarError):
    """A memoised function read a table it does not declare (found in checking mode)."""


class StaleMemo(HexwarError):
    """A memo's cached result differs from a fresh computation (found in checking mode)."""


class RecordError(DataError):
    """A state file or game record that cannot be loaded (the message says where/why)."""


class SequenceError(HexwarError):
    """A malformed sequence, or a cursor that does not fit the sequence."""


class UnknownToken(HexwarError):
    """A token (or token id) that is not in the game's action space."""


class NoActionSpace(HexwarError):
    """The ruleset does not declare its action space (``Ruleset.action_space``)."""


class UnknownGame(HexwarError):
    """No game is registered under the name (:mod:`hexwar.engine.registry`)."""


# -- the board (pieces, stacking, terrain, zoc) ------------------------------------------


class PieceError(HexwarError):
    """A registry operation on a piece that is not placed, or already is."""


class StackError(HexwarError):
    """A stack operation on a unit that is not (or already is) in the stack."""


class StackingViolation(IllegalAction):
    """Units that a stacking limit forbids in one cell."""


class UnknownMovementClassError(HexwarError):
    """A movement class the terrain chart does not define."""


class OffMapError(HexwarError):
    """A cell (a start, a target or a unit's position) that is not on the map."""


# -- the mechanics (activation, contest, crt, cups, deployment, removal, steps, ...) ------


class ActivationError(HexwarError):
    """A flag that is not one of the activation's, or a context read outside one."""


class ContestError(HexwarError):
    """A malformed opposed roll (fewer than two sides, a side named twice), or a total
    asked for before the side rolled."""


class CombatError(HexwarError):
    """A bad argument to a table: negative strength, a roll not on the dice, unknown column."""


class AttackRefused(IllegalAction):
    """The odds (or strength) fall below the table's lowest column (e.g. S8.2, S10.5).

    ``rule`` comes from the table's data.
    """


class CupError(HexwarError):
    """Taking a chit that is not in the cup."""


class DeploymentError(HexwarError):
    """A malformed deployment plan, or a placement answer that does not fit the decision."""


class RemovalError(HexwarError):
    """An answer that does not name one of the candidates."""


class ControlError(HexwarError):
    """A cell that is not controllable was given an owner."""


class ReplacementError(HexwarError):
    """A replacement the side cannot buy now (not enough points, not allowed there)."""


class StepError(HexwarError):
    """A step operation that the counter cannot do (a piece with no track, a dead piece)."""


class SelectionError(HexwarError):
    """An answer that is not a selection among the decision's candidates."""


class VictoryError(HexwarError):
    """A loss share asked of a side that started with no pieces, or no sides to compare."""


# -- rendering (style) -------------------------------------------------------------------


class RenderError(HexwarError):
    """Input the renderer cannot draw (a counter off the map, a bad style value...)."""


# -- the web server --------------------------------------------------------------------------


class RequestRefused(HexwarError):
    """A request the web server turns down, the game unchanged: ``status`` is the HTTP
    status (400 malformed, 403 wrong token, 404 unknown, 409 not allowed now), ``rule``
    the rule the refusal cites, if any."""

    def __init__(self, status: int, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.rule = rule


class WorkerFailed(HexwarError):
    """A web server's worker process could not answer (its bot raised, or it stopped)."""


# -- balance studies ---------------------------------------------------------------------------


class StudyError(HexwarError):
    """A study that cannot run: an unknown game, bot or option, an unreachable cluster."""


class ResultsError(HexwarError):
    """A study's results file that is not JSON lines of rows (names the file and line)."""
