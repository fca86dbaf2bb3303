"""Hypothesis strategies for hexwar values, for game authors' property tests.

Requires ``hypothesis`` (the ``test`` extra). Every strategy is a plain function
returning a ``SearchStrategy``, so they compose with ``st.builds`` / ``st.composite``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from hexwar.geometry import Hex

__all__ = ["hexes"]


def hexes(radius: int = 1000) -> st.SearchStrategy[Hex]:
    """Hexes with ``|q|, |r| <= radius`` (negative coordinates included)."""
    coord = st.integers(min_value=-radius, max_value=radius)
    return st.builds(Hex, coord, coord)
