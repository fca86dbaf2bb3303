"""The grid layer: hex and square geometry, with no rules and no state.

Cube hexes and their arithmetic (:mod:`~hexwar.grid.geometry`), offset and doubled
coordinates and map labels (:mod:`~hexwar.grid.coords`), screen layout
(:mod:`~hexwar.grid.layout`), hexsides, vertices and facings (:mod:`~hexwar.grid.edges`)
and square grids (:mod:`~hexwar.grid.square`). It may import only :mod:`hexwar.base`.
"""
