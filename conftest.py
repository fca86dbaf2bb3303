"""docs/interop.md needs the framework extras (``pip install -e ".[interop]"``)."""

import importlib.util

collect_ignore = [
    "docs/interop.md"
    for module in ("pyspiel", "pettingzoo", "gymnasium")
    if importlib.util.find_spec(module) is None
][:1]
