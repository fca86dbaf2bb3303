"""The combat results table and the bombardment table (S9), loaded through the core.

>>> crt = load_crt()
>>> crt.resolve(19, 6, roll=4).code, crt.resolve(19, 6, roll=2).code   # W2
('DR', 'EX')
>>> air = air_crt()
>>> air.column_for(14, 6), air.column_for(14, 21)                      # W3, W4
('2:1', '1:1')
>>> load_bombardment().resolve(2, roll=4).code                          # W8
'2Lo'
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar.mechanics.crt import OddsTable, StrengthTable
from hexwar.mechanics.crt_values import CombatResult, Distribution
from hexwar_stalingrad._checks import data_path

__all__ = [
    "RESULT_ORDER",
    "air_crt",
    "as_air_crt",
    "defender_loss",
    "expected_defender_loss",
    "load_bombardment",
    "load_crt",
    "load_tables",
    "tables_from_dict",
]

RESULT_ORDER: Final = ("AL", "NE", "EX", "DR", "DRL", "DE")
"""S9.1b: ground/air results from worst to best for the attacker (the tables' ranks)."""


def tables_from_dict(data: dict[str, Any], source: str) -> tuple[OddsTable, StrengthTable]:
    """The CRT (S9.1; air combat reads it too, S10.5) and the bombardment table (S9.2) of
    ``tables.toml``'s data."""
    ck = Checker(source)
    ck.keys(data, ("crt", "bombardment"), (), "top level")
    crt = OddsTable.from_data(ck.table(data["crt"], "crt"), source=source, prefix="crt.")
    bomb = StrengthTable.from_data(
        ck.table(data["bombardment"], "bombardment"), source=source, prefix="bombardment."
    )
    return crt, bomb


def load_tables(path: str | Path | None = None) -> tuple[OddsTable, StrengthTable]:
    """:func:`tables_from_dict` of a ``tables.toml`` file (the shipped one by default)."""
    return tables_from_dict(
        *read_data_file(Path(path) if path is not None else data_path("tables.toml"))
    )


def load_crt(path: str | Path | None = None) -> OddsTable:
    """The combat results table (S9.1), ground odds rounded down (S8.2); one d6 roll per
    attack selects the row (S1.6, S8.3)."""
    return load_tables(path)[0]


def air_crt(path: str | Path | None = None) -> OddsTable:
    """The same CRT for air combat: odds rounded to the nearest column, < 0.5 refused (S10.5)."""
    return as_air_crt(load_crt(path))


def as_air_crt(crt: OddsTable) -> OddsTable:
    """The ground CRT ``crt`` as air combat reads it: nearest column, < 0.5 refused (S10.5)."""
    return attrs.evolve(crt, rounding="nearest", refuse_below=Fraction(1, 2), rule="S10.5")


def load_bombardment(path: str | Path | None = None) -> StrengthTable:
    """The bombardment table (S9.2), columns ½, 1 and 2 bombs; rows: one d6 roll (S1.6, S7.2)."""
    return load_tables(path)[1]


def defender_loss(result: CombatResult) -> int:
    """Steps a full defender loses: destruction counts as both steps (S1.3)."""
    return 2 if result.eliminated else result.defender_steps


def expected_defender_loss(dist: Distribution) -> Fraction:
    """The expected defender loss of a column, in steps (S9.1c)."""
    return dist.expect(defender_loss)
