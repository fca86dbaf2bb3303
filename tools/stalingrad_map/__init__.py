"""The map builder of «Сталинград»: projects the source geography onto the hex grid and
writes ``src/hexwar_stalingrad/data/map.toml`` (``python tools/build_stalingrad_map.py``).

A developer tool, outside the runtime package: the game reads only the built map.
"""
