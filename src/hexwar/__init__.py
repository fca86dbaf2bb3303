"""hexwar: a rules library for hex-and-counter wargames.

The core is game-agnostic; each concept has its own module:

- geometry and coordinates: :mod:`hexwar.geometry`, :mod:`hexwar.coords`,
  :mod:`hexwar.layout`, :mod:`hexwar.edges`;
- maps and movement: :mod:`hexwar.grid`, :mod:`hexwar.terrain`, :mod:`hexwar.maps`,
  :mod:`hexwar.zoc`, :mod:`hexwar.movement`;
- combat and chance: :mod:`hexwar.crt`, :mod:`hexwar.dice`;
- the engine: :mod:`hexwar.actions`, :mod:`hexwar.state`, :mod:`hexwar.sequencer`,
  :mod:`hexwar.hooks`, :mod:`hexwar.records`;
- optional extras: :mod:`hexwar.render` (SVG), :mod:`hexwar.testing` and
  :mod:`hexwar.strategies` (need ``hypothesis``, the ``test`` extra).

The most used names are re-exported here. Games live in their own packages
(``hexwar_stalingrad`` is the first); the core never imports them.

>>> from hexwar import Hex
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from hexwar.actions import (
    CHANCE,
    END,
    TERMINAL,
    Action,
    Decision,
    GameOverError,
    NotLegalNow,
    Outcome,
    Seat,
)
from hexwar.activation import Activation, ActivationError, alternate
from hexwar.contest import ContestError, OpposedRoll
from hexwar.coords import MapLabels, OffsetKind, hex_to_offset, offset_to_hex
from hexwar.crt import AttackRefused, OddsTable, Result, StrengthTable, load_table
from hexwar.cups import Cup, CupError
from hexwar.deployment import Deployment, DeploymentError
from hexwar.dice import D6, D10, Dice, FixedDriver, SeededDriver
from hexwar.edges import Facing, FacingStyle, Hexside, Vertex
from hexwar.errors import DataError, HexwarError, IllegalAction
from hexwar.geometry import DIAGONALS, DIRECTIONS, ORIGIN, FractionalHex, Hex, hex_round
from hexwar.grid import (
    HEX_GRID,
    SQUARE_GRID,
    LabelError,
    Square,
    SquareLabels,
    line_clear,
    square_line,
)
from hexwar.hooks import Effect, Expiry
from hexwar.kinds import Combination, Kind, Kinds, Values
from hexwar.layout import FLAT, POINTY, Layout
from hexwar.maps import GameMap, build_map, load_map
from hexwar.memo import StateMemo, state_memo
from hexwar.movement import MoveRules, MoveSearch, Reach, find_path, reachable
from hexwar.pieces import HEX_CODEC, SQUARE_CODEC, PieceError, Pieces
from hexwar.play import RandomPlayer, TokenStepper, play
from hexwar.records import GameRecord, dumps, loads, record_of, replay
from hexwar.removal import ChosenRemoval, RemovalError
from hexwar.retreat import retreat_cells
from hexwar.selection import SecretSelection, SelectionError, subsets
from hexwar.sequencer import Phase, Segment, Stage, TurnSequence
from hexwar.space import DONE, ActionSpace, UnknownToken
from hexwar.state import Ruleset, State
from hexwar.terrain import TerrainChart, load_chart
from hexwar.victory import VictoryError, eliminated, fewer_losses, loss_share, withdrawn
from hexwar.zoc import zoc_cells

__all__ = [
    "CHANCE",
    "D6",
    "D10",
    "DIAGONALS",
    "DIRECTIONS",
    "DONE",
    "END",
    "FLAT",
    "HEX_CODEC",
    "HEX_GRID",
    "ORIGIN",
    "POINTY",
    "SQUARE_CODEC",
    "SQUARE_GRID",
    "TERMINAL",
    "Action",
    "ActionSpace",
    "Activation",
    "ActivationError",
    "AttackRefused",
    "ChosenRemoval",
    "Combination",
    "ContestError",
    "Cup",
    "CupError",
    "DataError",
    "Decision",
    "Deployment",
    "DeploymentError",
    "Dice",
    "Effect",
    "Expiry",
    "Facing",
    "FacingStyle",
    "FixedDriver",
    "FractionalHex",
    "GameMap",
    "GameOverError",
    "GameRecord",
    "Hex",
    "Hexside",
    "HexwarError",
    "IllegalAction",
    "Kind",
    "Kinds",
    "LabelError",
    "Layout",
    "MapLabels",
    "MoveRules",
    "MoveSearch",
    "NotLegalNow",
    "OddsTable",
    "OffsetKind",
    "OpposedRoll",
    "Outcome",
    "Phase",
    "PieceError",
    "Pieces",
    "RandomPlayer",
    "Reach",
    "RemovalError",
    "Result",
    "Ruleset",
    "Seat",
    "SecretSelection",
    "SeededDriver",
    "Segment",
    "SelectionError",
    "Square",
    "SquareLabels",
    "Stage",
    "State",
    "StateMemo",
    "StrengthTable",
    "TerrainChart",
    "TokenStepper",
    "TurnSequence",
    "UnknownToken",
    "Values",
    "Vertex",
    "VictoryError",
    "alternate",
    "build_map",
    "dumps",
    "eliminated",
    "fewer_losses",
    "find_path",
    "hex_round",
    "hex_to_offset",
    "line_clear",
    "load_chart",
    "load_map",
    "load_table",
    "loads",
    "loss_share",
    "offset_to_hex",
    "play",
    "reachable",
    "record_of",
    "replay",
    "retreat_cells",
    "square_line",
    "state_memo",
    "subsets",
    "withdrawn",
    "zoc_cells",
]
__version__ = "0.1.0.dev0"
