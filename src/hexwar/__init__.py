"""hexwar: a rules library for hex-and-counter wargames.

The core is game-agnostic and built in layers, each a subpackage that imports only the
layers below it (``docs/architecture.md`` has the module table):

- :mod:`hexwar.base`: the error tree (:mod:`hexwar.base.errors`) and data-file reading;
- :mod:`hexwar.grid`: hex and square geometry, coordinates, layout, hexsides;
- :mod:`hexwar.engine`: actions, state and ruleset, turn sequence, hooks, dice, records,
  the action space and the game loop;
- :mod:`hexwar.board`: terrain charts, maps, zones of control, movement, stacking, pieces;
- :mod:`hexwar.mechanics`: CRTs, combat, step counters, supply, control, replacements,
  cups, deployment, activation, contests, secret selection, retreats, removal, victory;
- :mod:`hexwar.render` (SVG), :mod:`hexwar.web` (the ``web`` extra) and
  :mod:`hexwar.testing` (the verification kit and hypothesis strategies; the ``test`` extra).

This namespace holds what a game author writes a game with; a game on these names needs no
deeper import (the tutorial's *Crossing* and *Bridgehead* import only from here, and
:mod:`hexwar.render` / :mod:`hexwar.web` for their pictures and web page). By topic:

- errors: ``HexwarError``, ``DataError``, ``IllegalAction``, ``NotLegalNow``;
- rules and state: ``Ruleset``, ``State``, ``Action``, ``Decision``, ``Outcome``,
  ``Value``, ``END``, ``CHANCE``;
- turn sequence: ``TurnSequence``, ``Stage``, ``Phase``, ``Segment``;
- action kinds and the action space: ``Kind``, ``Kinds``, ``Values``, ``Combination``,
  ``ActionSpace``, ``Bounds``;
- dice and effects: ``D6``, ``Dice``, ``Effect``, ``Expiry``;
- the map: ``Hex``, ``hexagon``, ``rectangle``, ``offset_to_hex``, ``GameMap``,
  ``build_map``, ``chart_from_dict``, ``TerrainChart``, ``load_map``, ``load_chart``;
- pieces and movement: ``Pieces``, ``HEX_CODEC``, ``PieceMoves``, ``MoveRules``,
  ``reachable``, ``Reach``, ``find_path``, ``zoc_cells``;
- combat: ``OddsTable``, ``CombatResult``, ``load_table``, ``Combat``, ``OddsRules``,
  ``HexsideShift``, ``RetreatRules``, ``AdvanceRules``;
- shared mechanisms: ``StepCounters``, ``StepTrack``, ``Control``, ``ControlVictory``,
  ``Replacements``, ``edge_or_held``, ``in_communication``, ``trace_lengths``, ``traced``,
  ``zoc_stops``;
- playing and records: ``play``, ``RandomPlayer``, ``SeededDriver``, ``GameRecord``,
  ``replay``, ``dumps``, ``loads``.

Everything else is imported from its subpackage's module. Games live in their own
packages (``hexwar_stalingrad`` is the first); the core never imports them.

>>> from hexwar import Hex
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from hexwar.base.errors import DataError, HexwarError, IllegalAction, NotLegalNow
from hexwar.board.map_load import load_map
from hexwar.board.maps import GameMap, build_map, hexagon, rectangle
from hexwar.board.move_rules import MoveRules
from hexwar.board.movement import Reach, find_path, reachable
from hexwar.board.pieces import HEX_CODEC, Pieces
from hexwar.board.terrain import TerrainChart, chart_from_dict, load_chart
from hexwar.board.zoc import zoc_cells
from hexwar.engine import pickling as _pickling  # noqa: F401 - registers State pickling
from hexwar.engine.actions import CHANCE, END, Action, Decision, Outcome, Value
from hexwar.engine.bounds import Bounds
from hexwar.engine.dice import D6, Dice, SeededDriver
from hexwar.engine.hooks import Effect, Expiry
from hexwar.engine.kinds import Combination, Kind, Kinds, Values
from hexwar.engine.loop import RandomPlayer, play
from hexwar.engine.records import GameRecord, replay
from hexwar.engine.savefile import dumps, loads
from hexwar.engine.sequencer import Phase, Segment, Stage, TurnSequence
from hexwar.engine.space import ActionSpace
from hexwar.engine.state import Ruleset, State
from hexwar.grid.coords import offset_to_hex
from hexwar.grid.geometry import Hex
from hexwar.mechanics.combat import AdvanceRules, Combat, HexsideShift, OddsRules
from hexwar.mechanics.control import Control
from hexwar.mechanics.crt import OddsTable, load_table
from hexwar.mechanics.crt_values import CombatResult
from hexwar.mechanics.moves import PieceMoves
from hexwar.mechanics.replacements import Replacements, edge_or_held
from hexwar.mechanics.retreat import RetreatRules
from hexwar.mechanics.steps import StepCounters, StepTrack
from hexwar.mechanics.supply import in_communication, trace_lengths, traced, zoc_stops
from hexwar.mechanics.victory import ControlVictory

# The public names by topic, in the order of the module docstring.
__all__: list[str] = []
__all__ += [  # errors
    "DataError",
    "HexwarError",
    "IllegalAction",
    "NotLegalNow",
]
__all__ += [  # rules and state
    "CHANCE",
    "END",
    "Action",
    "Decision",
    "Outcome",
    "Ruleset",
    "State",
    "Value",
]
__all__ += [  # turn sequence
    "Phase",
    "Segment",
    "Stage",
    "TurnSequence",
]
__all__ += [  # action kinds and the action space
    "ActionSpace",
    "Bounds",
    "Combination",
    "Kind",
    "Kinds",
    "Values",
]
__all__ += [  # dice and effects
    "D6",
    "Dice",
    "Effect",
    "Expiry",
]
__all__ += [  # the map
    "GameMap",
    "Hex",
    "TerrainChart",
    "build_map",
    "chart_from_dict",
    "hexagon",
    "load_chart",
    "load_map",
    "offset_to_hex",
    "rectangle",
]
__all__ += [  # pieces and movement
    "HEX_CODEC",
    "MoveRules",
    "PieceMoves",
    "Pieces",
    "Reach",
    "find_path",
    "reachable",
    "zoc_cells",
]
__all__ += [  # combat
    "AdvanceRules",
    "Combat",
    "CombatResult",
    "HexsideShift",
    "OddsRules",
    "OddsTable",
    "RetreatRules",
    "load_table",
]
__all__ += [  # shared mechanisms
    "Control",
    "ControlVictory",
    "Replacements",
    "StepCounters",
    "StepTrack",
    "edge_or_held",
    "in_communication",
    "trace_lengths",
    "traced",
    "zoc_stops",
]
__all__ += [  # playing and records
    "GameRecord",
    "RandomPlayer",
    "SeededDriver",
    "dumps",
    "loads",
    "play",
    "replay",
]
__version__ = "0.1.0.dev0"
