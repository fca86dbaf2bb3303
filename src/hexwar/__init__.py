"""hexwar: a rules library for hex-and-counter wargames.

The core is game-agnostic; each concept has its own module:

- geometry and coordinates: :mod:`hexwar.grid.geometry`, :mod:`hexwar.grid.coords`,
  :mod:`hexwar.grid.layout`, :mod:`hexwar.grid.edges`;
- maps and movement: :mod:`hexwar.grid.square`, :mod:`hexwar.board.terrain`,
  :mod:`hexwar.board.maps`, :mod:`hexwar.board.zoc`, :mod:`hexwar.board.movement`;
- combat and chance: :mod:`hexwar.mechanics.crt`, :mod:`hexwar.engine.dice`;
- the engine: :mod:`hexwar.engine.actions`, :mod:`hexwar.engine.state`,
  :mod:`hexwar.engine.sequencer`, :mod:`hexwar.engine.hooks`, :mod:`hexwar.engine.records`;
- optional extras: :mod:`hexwar.render` (SVG), :mod:`hexwar.testing` and
  :mod:`hexwar.testing.strategies` (need ``hypothesis``, the ``test`` extra).

The most used names are re-exported here. Games live in their own packages
(``hexwar_stalingrad`` is the first); the core never imports them.

>>> from hexwar import Hex
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from hexwar.base.errors import DataError, HexwarError, IllegalAction
from hexwar.board.maps import GameMap, build_map, load_map
from hexwar.board.movement import MoveRules, MoveSearch, Reach, find_path, reachable
from hexwar.board.pieces import HEX_CODEC, SQUARE_CODEC, PieceError, Pieces
from hexwar.board.terrain import TerrainChart, load_chart
from hexwar.board.zoc import zoc_cells
from hexwar.engine.actions import (
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
from hexwar.engine.dice import D6, D10, Dice, FixedDriver, SeededDriver
from hexwar.engine.hooks import Effect, Expiry
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.loop import RandomPlayer, TokenStepper, play
from hexwar.engine.memo import StateMemo, state_memo
from hexwar.engine.records import GameRecord, dumps, loads, record_of, replay
from hexwar.engine.sequencer import Phase, Segment, Stage, TurnSequence
from hexwar.engine.space import DONE, ActionSpace, UnknownToken
from hexwar.engine.state import Ruleset, State
from hexwar.grid.coords import MapLabels, OffsetKind, hex_to_offset, offset_to_hex
from hexwar.grid.edges import Facing, FacingStyle, Hexside, Vertex
from hexwar.grid.geometry import DIAGONALS, DIRECTIONS, ORIGIN, FractionalHex, Hex, hex_round
from hexwar.grid.layout import FLAT, POINTY, Layout
from hexwar.grid.square import (
    HEX_GRID,
    SQUARE_GRID,
    LabelError,
    Square,
    SquareLabels,
    line_clear,
    square_line,
)
from hexwar.mechanics.activation import Activation, ActivationError, alternate
from hexwar.mechanics.contest import ContestError, OpposedRoll
from hexwar.mechanics.crt import AttackRefused, OddsTable, Result, StrengthTable, load_table
from hexwar.mechanics.cups import Cup, CupError
from hexwar.mechanics.deployment import Deployment, DeploymentError
from hexwar.mechanics.removal import ChosenRemoval, RemovalError
from hexwar.mechanics.retreat import retreat_cells
from hexwar.mechanics.selection import SecretSelection, SelectionError, subsets
from hexwar.mechanics.victory import VictoryError, eliminated, fewer_losses, loss_share, withdrawn

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
