"""The order of battle: ground and air counters (S1.3, S1.4, S1.7).

Loaded from ``data/oob.toml``; strengths and their derivation: ``docs/stalingrad/oob.md``.

>>> oob = load_oob()
>>> oob.air_unit("wa-bf109g").strength, oob.air_unit("wa-bf109g").role
(Strength(full=15, reduced=8), 'fighter')
>>> oob.ground_unit("r-swf-kat").bombs, oob.ground_unit("r-swf-kat").reduced_bombs
(Fraction(2, 1), Fraction(1, 1))
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import attrs

from hexwar.base.datafile import Checker, read_data_file
from hexwar_stalingrad._checks import data_path

__all__ = [
    "ARMS",
    "BOMB_STEPS",
    "EXPLOITING_ARMS",
    "FRONTS",
    "GROUPS",
    "MOVEMENT_CLASS",
    "SIDES",
    "AirUnit",
    "GroundUnit",
    "OrderOfBattle",
    "Strength",
    "load_oob",
    "reduced_bombs",
]

SIDES: Final = ("rkka", "wehrmacht")
ARMS: Final = ("infantry", "tank", "mechanized", "cavalry", "artillery", "katyusha")
MOVEMENT_CLASS: Final = {
    "infantry": "foot",
    "artillery": "foot",
    "tank": "motorized",
    "mechanized": "motorized",
    "katyusha": "motorized",
    "cavalry": "cavalry",
}
"""The terrain chart's movement class of each arm (``data/terrain.toml``)."""
EXPLOITING_ARMS: Final = {
    "rkka": frozenset({"tank", "cavalry", "mechanized", "katyusha"}),
    "wehrmacht": frozenset({"tank", "cavalry", "mechanized"}),
}
"""Arms that move again in exploitation (S6.5, S4 stages 4.4 / 5.4)."""
BOMB_STEPS: Final = (Fraction(1, 2), Fraction(1), Fraction(2))
"""Printed bomb values (ruling S1.4)."""
FRONTS: Final = {
    "rkka": ("don_front", "stalingrad_front", "sw_front"),
    "wehrmacht": ("army_group_b", "army_group_don"),
}
"""The fronts (army groups) of each side: the five- and six-player seats split the ground
forces by them (S3.1)."""
GROUPS: Final = frozenset({"6th_army", "relief_group"})
"""Group tags the victory rules read (S11.1 Paulus's 6th Army, S11.2 Manstein's relief)."""
_BOMBING_ARMS: Final = frozenset({"artillery", "katyusha"})
_ARRIVALS_GROUND: Final = (1, 6)
_ARRIVALS_AIR: Final = (3, 6)


def reduced_bombs(bombs: Fraction) -> Fraction:
    """The reduced side's bombs: one step less, ½ stays ½ (ruling S1.4).

    >>> [str(reduced_bombs(b)) for b in BOMB_STEPS]
    ['1/2', '1/2', '1']
    """
    i = BOMB_STEPS.index(bombs)
    return BOMB_STEPS[max(0, i - 1)]


@attrs.frozen
class Strength:
    """A value on the full side and on the reduced side of a counter."""

    full: int
    reduced: int


@attrs.frozen
class GroundUnit:
    """A ground counter (S1.3). ``start`` is the side's start-hex number."""

    id: str
    side: str
    arm: str
    name: str
    name_ru: str
    formations: tuple[str, ...]
    strength: Strength
    movement: Strength
    army: str
    front: str
    start: int
    arrives: int
    groups: frozenset[str] = frozenset()
    bombs: Fraction | None = None
    basis: str = ""

    @property
    def reduced_bombs(self) -> Fraction | None:
        """Bombs on the reduced side (S1.4)."""
        return None if self.bombs is None else reduced_bombs(self.bombs)

    @property
    def movement_class(self) -> str:
        """The terrain chart's movement class for this arm."""
        return MOVEMENT_CLASS[self.arm]


@attrs.frozen
class AirUnit:
    """An air counter (S1.4): air strength, fighter or bomber, bombs, base airfield."""

    id: str
    side: str
    aircraft: str
    aircraft_ru: str
    role: str
    strength: Strength
    formations: tuple[str, ...]
    air_army: str
    base: str
    arrives: int
    bombs: Fraction | None = None

    @property
    def reduced_bombs(self) -> Fraction | None:
        """Bombs on the reduced side (S1.4)."""
        return None if self.bombs is None else reduced_bombs(self.bombs)


@attrs.frozen
class OrderOfBattle:
    """All counters, in file order."""

    ground: tuple[GroundUnit, ...]
    air: tuple[AirUnit, ...]

    def ground_unit(self, id: str) -> GroundUnit:
        """The ground unit ``id`` (``KeyError`` if unknown)."""
        for u in self.ground:
            if u.id == id:
                return u
        raise KeyError(id)

    def air_unit(self, id: str) -> AirUnit:
        """The air unit ``id`` (``KeyError`` if unknown)."""
        for a in self.air:
            if a.id == id:
                return a
        raise KeyError(id)

    def side(self, side: str) -> tuple[GroundUnit, ...]:
        """The ground units of one side."""
        return tuple(u for u in self.ground if u.side == side)

    def group(self, group: str) -> tuple[GroundUnit, ...]:
        """The ground units tagged ``group`` (``6th_army``, ``relief_group``)."""
        return tuple(u for u in self.ground if group in u.groups)


def _entry(section: str, i: int, raw: dict[str, Any]) -> str:
    """``ground[3] (r-1tc)``: the entry's index and, when it has one, its id."""
    id_ = raw.get("id")
    return f"{section}[{i}] ({id_})" if isinstance(id_, str) else f"{section}[{i}]"


def _pair(ck: Checker, raw: object, entry: str, minimum: int) -> Strength:
    if not isinstance(raw, list) or len(raw) != 2:
        raise ck.fail(entry, f"wrong type: expected [full, reduced], got {raw!r}")
    full, red = (ck.integer(v, entry, minimum) for v in raw)
    if red > full:
        raise ck.fail(entry, f"reduced value {red} exceeds full value {full}")
    return Strength(full, red)


def _bombs(ck: Checker, raw: object, entry: str) -> Fraction:
    value = ck.number(raw, entry)
    bombs = Fraction(value).limit_denominator(2)
    if bombs not in BOMB_STEPS:
        raise ck.fail(entry, f"bombs must be 0.5, 1 or 2 (ruling S1.4), got {raw!r}")
    return bombs


_GROUND_REQUIRED: Final = (
    "id",
    "side",
    "arm",
    "name",
    "name_ru",
    "formations",
    "strength",
    "movement",
    "army",
    "front",
    "start",
    "arrives",
)
_AIR_REQUIRED: Final = (
    "id",
    "side",
    "aircraft",
    "aircraft_ru",
    "role",
    "strength",
    "formations",
    "air_army",
    "base",
    "arrives",
)


def load_oob(path: str | Path | None = None) -> OrderOfBattle:
    """Load and validate ``oob.toml`` (the shipped one by default).

    Raises :class:`hexwar.base.errors.DataError` naming the file and the counter.
    """
    data, source = read_data_file(path if path is not None else data_path("oob.toml"))
    return oob_from_dict(data, source)


def oob_from_dict(data: dict[str, Any], source: str = "<data>") -> OrderOfBattle:
    """Build and validate an order of battle from parsed TOML."""
    ck = Checker(source)
    unknown = sorted(set(data) - {"ground", "air"})
    if unknown:
        raise ck.fail(unknown[0], f"unknown section {unknown[0]!r}")
    ids: set[str] = set()
    starts: dict[tuple[str, int], str] = {}
    ground = []
    for i, raw in enumerate(ck.items(data, "ground")):
        e = _entry("ground", i, raw)
        ck.keys(raw, _GROUND_REQUIRED, ("groups", "bombs", "basis"), e)
        id_ = ck.string(raw["id"], f"{e}.id")
        if id_ in ids:
            raise ck.fail(e, f"duplicate id {id_!r}")
        ids.add(id_)
        side = ck.choice(raw["side"], SIDES, f"{e}.side")
        arm = ck.choice(raw["arm"], ARMS, f"{e}.arm")
        start = ck.integer(raw["start"], f"{e}.start", 1)
        if (side, start) in starts:
            raise ck.fail(e, f"start number {start} reused (also {starts[side, start]})")
        starts[side, start] = id_
        arrives = ck.integer(raw["arrives"], f"{e}.arrives")
        if arrives not in _ARRIVALS_GROUND:
            raise ck.fail(f"{e}.arrives", f"must be 1 or 6 (turn-6 reserve, S4.2), got {arrives}")
        bombs = None
        if arm in _BOMBING_ARMS:
            if "bombs" not in raw:
                raise ck.fail(e, f"missing field 'bombs' (every {arm} unit bombards, S7.2)")
            bombs = _bombs(ck, raw["bombs"], f"{e}.bombs")
        elif "bombs" in raw:
            raise ck.fail(f"{e}.bombs", f"a {arm} unit has no bombs")
        groups = frozenset(ck.str_list(raw.get("groups", []), f"{e}.groups"))
        if not groups <= GROUPS:
            raise ck.fail(f"{e}.groups", f"unknown group in {sorted(groups)}")
        formations = tuple(ck.str_list(raw["formations"], f"{e}.formations"))
        if not formations:
            raise ck.fail(f"{e}.formations", "a counter stands for at least one formation (S1.3)")
        ground.append(
            GroundUnit(
                id_,
                side,
                arm,
                ck.string(raw["name"], f"{e}.name"),
                ck.string(raw["name_ru"], f"{e}.name_ru"),
                formations,
                _pair(ck, raw["strength"], f"{e}.strength", 1),
                _pair(ck, raw["movement"], f"{e}.movement", 1),
                ck.string(raw["army"], f"{e}.army"),
                ck.string(raw["front"], f"{e}.front"),
                start,
                arrives,
                groups,
                bombs,
                ck.string(raw["basis"], f"{e}.basis") if "basis" in raw else "",
            )
        )
    air = []
    for i, raw in enumerate(ck.items(data, "air")):
        e = _entry("air", i, raw)
        ck.keys(raw, _AIR_REQUIRED, ("bombs",), e)
        id_ = ck.string(raw["id"], f"{e}.id")
        if id_ in ids:
            raise ck.fail(e, f"duplicate id {id_!r}")
        ids.add(id_)
        role = ck.choice(raw["role"], ("fighter", "bomber"), f"{e}.role")
        if role == "bomber" and "bombs" not in raw:
            raise ck.fail(e, "missing field 'bombs' (a bomber carries the bomb symbol, S1.4)")
        if role == "fighter" and "bombs" in raw:
            raise ck.fail(f"{e}.bombs", "a fighter has no bombs")
        arrives = ck.integer(raw["arrives"], f"{e}.arrives")
        if arrives not in _ARRIVALS_AIR:
            raise ck.fail(f"{e}.arrives", f"must be 3 (S10.1) or 6 (S4.2), got {arrives}")
        air.append(
            AirUnit(
                id_,
                ck.choice(raw["side"], SIDES, f"{e}.side"),
                ck.string(raw["aircraft"], f"{e}.aircraft"),
                ck.string(raw["aircraft_ru"], f"{e}.aircraft_ru"),
                role,
                _pair(ck, raw["strength"], f"{e}.strength", 1),
                tuple(ck.str_list(raw["formations"], f"{e}.formations")),
                ck.string(raw["air_army"], f"{e}.air_army"),
                ck.string(raw["base"], f"{e}.base"),
                arrives,
                _bombs(ck, raw["bombs"], f"{e}.bombs") if "bombs" in raw else None,
            )
        )
    return OrderOfBattle(tuple(ground), tuple(air))
