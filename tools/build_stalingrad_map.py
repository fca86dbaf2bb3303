"""Rebuild src/hexwar_stalingrad/data/map.toml from the source geography (S1.1).

Usage: ``python tools/build_stalingrad_map.py [OUTPUT]`` (default: the packaged map.toml).
Inputs: geography.toml, map_features.toml and map_corrections.toml in the same data folder.
Re-running it on unchanged inputs rewrites the shipped file byte for byte (tested).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root

from tools.stalingrad_map.mapbuild import main

if __name__ == "__main__":
    print(f"wrote {main(sys.argv[1:])}")
