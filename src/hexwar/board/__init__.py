"""The board layer: the map and what stands on it.

Terrain charts (:mod:`~hexwar.board.terrain`), maps (:mod:`~hexwar.board.maps`) and map
files (:mod:`~hexwar.board.map_load`), zones of control (:mod:`~hexwar.board.zoc`),
movement and paths (:mod:`~hexwar.board.movement`, with its pluggable rules in
:mod:`~hexwar.board.move_rules` and the compiled search in
:mod:`~hexwar.board.move_search`), stacking limits (:mod:`~hexwar.board.stacking`) and the
piece registry kept in the state (:mod:`~hexwar.board.pieces`, its reads in
:mod:`~hexwar.board.occupancy`). "Where does a unit stop in enemy ZOC?" is answered in
:mod:`hexwar.board.movement`. It may import :mod:`hexwar.base`, :mod:`hexwar.grid` and
:mod:`hexwar.engine`.
"""
