"""The exceptions hexwar raises. Every one is a ``ValueError`` with a message that says why.

>>> err = IllegalAction("hex 0912 is occupied", rule="S6.2")
>>> str(err)
'S6.2: hex 0912 is occupied'
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = ["DataError", "HexwarError", "IllegalAction"]


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
