"""``python -m hexwar demo``: a short tour of the core, printed to the terminal."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hexwar.geometry import Hex


def demo() -> None:
    """Print a small tour of hex geometry."""
    centre = Hex(0, 0)
    print("hexwar demo")
    print(f"  neighbours of {centre}: {', '.join(map(str, centre.neighbors()))}")
    print(f"  ring 2 has {len(centre.ring(2))} hexes; spiral 3 has {len(centre.spiral(3))}")
    target = Hex(4, -2)
    print(f"  line {centre} -> {target}: {centre.line_to(target)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexwar", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="a short tour of the core")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
