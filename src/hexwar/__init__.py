"""hexwar: a rules library for hex-and-counter wargames.

The core is game-agnostic: geometry (:mod:`hexwar.geometry`), maps and terrain,
ZOC-aware movement, combat tables, dice as chance events, a phase sequencer and rule
hooks. Games live in their own packages (``hexwar_stalingrad`` is the first).
"""

from hexwar.geometry import DIAGONALS, DIRECTIONS, FractionalHex, Hex, hex_round

__all__ = ["DIAGONALS", "DIRECTIONS", "FractionalHex", "Hex", "hex_round"]
__version__ = "0.1.0.dev0"
