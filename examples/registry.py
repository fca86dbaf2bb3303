"""Register the example games and the tutorial's under their names
(:mod:`hexwar.engine.registry`): ``boy_otryadov`` (the skirmish scenario),
``triumph_and_glory``, ``bridgehead`` (``examples/classic``) and ``crossing``. The
repository root must be importable."""

from __future__ import annotations

from hexwar.engine.registry import register

__all__ = ["register_examples"]


def _boy() -> object:
    from examples.boy_otryadov.rules import BoyOtryadov

    return BoyOtryadov()


def _tg() -> object:
    from examples.triumph_and_glory.rules import TriumphAndGlory

    return TriumphAndGlory()


def _crossing() -> object:
    from examples.tutorial.crossing import Crossing

    return Crossing()


def _bridgehead() -> object:
    from examples.classic.rules import Bridgehead

    return Bridgehead()


def register_examples() -> tuple[str, ...]:
    """Register the four games (idempotent); their names."""
    register("boy_otryadov", _boy, scenario="skirmish")  # type: ignore[arg-type]
    register("triumph_and_glory", _tg)  # type: ignore[arg-type]
    register("crossing", _crossing)  # type: ignore[arg-type]
    register("bridgehead", _bridgehead)  # type: ignore[arg-type]
    return ("boy_otryadov", "bridgehead", "crossing", "triumph_and_glory")
