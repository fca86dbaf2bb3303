"""hexwar: a rules library for hex-and-counter wargames.

The core is game-agnostic and built in layers, each a subpackage that imports only the
layers below it (``docs/architecture.md`` has the module table):

- :mod:`hexwar.base`: the error tree (:mod:`hexwar.base.errors`) and data-file reading;
- :mod:`hexwar.grid`: hex and square geometry, coordinates, layout, hexsides;
- :mod:`hexwar.engine`: actions, state and ruleset, turn sequence, hooks, dice, records,
  the action space and the game loop;
- :mod:`hexwar.board`: terrain charts, maps, zones of control, movement, stacking, pieces;
- :mod:`hexwar.mechanics`: CRTs, cups, deployment, activation, contests, secret
  selection, retreats, removal, victory helpers;
- :mod:`hexwar.render` (SVG) and :mod:`hexwar.testing` (the verification kit and
  hypothesis strategies; the ``test`` extra).

The names a game author reaches for first are re-exported here; everything else is
imported from its subpackage's module. Games live in their own packages
(``hexwar_stalingrad`` is the first); the core never imports them.

>>> from hexwar import Hex
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from hexwar.base.errors import DataError, HexwarError, IllegalAction, NotLegalNow
from hexwar.board.map_load import load_map
from hexwar.board.maps import GameMap
from hexwar.board.move_rules import MoveRules
from hexwar.board.movement import find_path, reachable
from hexwar.board.pieces import Pieces
from hexwar.board.terrain import TerrainChart, load_chart
from hexwar.board.zoc import zoc_cells
from hexwar.engine import pickling as _pickling  # noqa: F401 - registers State pickling
from hexwar.engine.actions import CHANCE, END, Action, Decision, Outcome
from hexwar.engine.dice import D6, Dice, SeededDriver
from hexwar.engine.hooks import Effect, Expiry
from hexwar.engine.kinds import Kind, Kinds
from hexwar.engine.loop import RandomPlayer, play
from hexwar.engine.records import GameRecord, replay
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Phase, Segment, Stage, TurnSequence
from hexwar.engine.state import Ruleset, State
from hexwar.grid.geometry import Hex
from hexwar.mechanics.crt import OddsTable
from hexwar.mechanics.crt_load import load_table

__all__ = [
    "CHANCE",
    "D6",
    "END",
    "Action",
    "DataError",
    "Decision",
    "Dice",
    "Effect",
    "Expiry",
    "GameMap",
    "GameRecord",
    "Hex",
    "HexwarError",
    "IllegalAction",
    "Kind",
    "Kinds",
    "MoveRules",
    "NotLegalNow",
    "OddsTable",
    "Outcome",
    "Phase",
    "Pieces",
    "RandomPlayer",
    "Ruleset",
    "SeededDriver",
    "Segment",
    "Stage",
    "State",
    "TerrainChart",
    "TurnSequence",
    "dumps",
    "find_path",
    "load_chart",
    "load_map",
    "load_table",
    "loads",
    "play",
    "reachable",
    "replay",
    "zoc_cells",
]
__version__ = "0.1.0.dev0"
