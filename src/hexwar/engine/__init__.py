"""The engine layer: what turns rules into a playable, replayable game.

Actions and decisions (:mod:`~hexwar.engine.actions`), the state and the ruleset
(:mod:`~hexwar.engine.state`), the turn sequence (:mod:`~hexwar.engine.sequencer`), hooks
and effects (:mod:`~hexwar.engine.hooks`), dice and chance drivers
(:mod:`~hexwar.engine.dice`), save files (:mod:`~hexwar.engine.savefile`), game records and replay
(:mod:`~hexwar.engine.records`; their shared format: :mod:`~hexwar.engine.fileformat`),
memos (:mod:`~hexwar.engine.memo`), the token action space (:mod:`~hexwar.engine.space`,
:mod:`~hexwar.engine.kinds`) and the game loop (:mod:`~hexwar.engine.loop`). It knows
nothing of maps or hexes: it may import only :mod:`hexwar.base`.
"""
