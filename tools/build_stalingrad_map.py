"""Rebuild src/hexwar_stalingrad/data/map.toml from the source geography (S1.1).

Usage: ``python tools/build_stalingrad_map.py [OUTPUT]`` (default: the packaged map.toml).
Inputs: geography.toml, map_features.toml and map_corrections.toml in the same data folder.
Re-running it on unchanged inputs rewrites the shipped file byte for byte (tested).
"""

from __future__ import annotations

import sys

from hexwar_stalingrad.mapbuild import main

if __name__ == "__main__":
    print(f"wrote {main(sys.argv[1:])}")
