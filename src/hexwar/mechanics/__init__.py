"""The mechanics layer: procedures that many games share, built on the engine and board.

Combat results tables (:mod:`~hexwar.mechanics.crt`, also read from files; their values
:mod:`~hexwar.mechanics.crt_values`), chit cups
(:mod:`~hexwar.mechanics.cups`), hidden deployment (:mod:`~hexwar.mechanics.deployment`),
activation (:mod:`~hexwar.mechanics.activation`), opposed rolls
(:mod:`~hexwar.mechanics.contest`), secret selection (:mod:`~hexwar.mechanics.selection`),
retreats (:mod:`~hexwar.mechanics.retreat`), chosen removal
(:mod:`~hexwar.mechanics.removal`), step counters (:mod:`~hexwar.mechanics.steps`) and victory
helpers (:mod:`~hexwar.mechanics.victory`).
It may import :mod:`hexwar.base`, :mod:`hexwar.grid`, :mod:`hexwar.engine` and
:mod:`hexwar.board`; nothing below imports it.
"""
