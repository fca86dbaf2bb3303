"""Bridgehead: a classic two-player hex-and-counter game on hexwar's shared mechanisms.

The second part of ``docs/tutorial.md`` walks through it; :mod:`.data` holds the map, the
counters and the tables, :mod:`.rules` the rules (178 lines).
"""
