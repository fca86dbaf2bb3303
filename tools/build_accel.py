"""Build a Cython-compiled copy of hexwar and hexwar_stalingrad (an experiment, issue 11).

Run: ``python tools/build_accel.py [--groups engine,board,mechanics,stalingrad]
[--exclude MODULE ...] [--directive NAME=VALUE ...] [--out build/accel]`` (needs
``pip install cython`` and a C compiler). The sources are **not** edited: ``src/hexwar``
and ``src/hexwar_stalingrad`` are copied to ``OUT/src`` and the chosen modules are
compiled there in place (Cython's pure-Python mode, no ``.pxd`` files), each ``.py``
kept beside its extension module (the import system prefers the extension). Then
``PYTHONPATH=OUT/src python ...`` runs the compiled copy, and the benchmarks' ``--old
OUT`` compare it with this tree. The normal install stays pure Python.

Groups (each a list of module globs under ``src``; package ``__init__`` files stay
interpreted): see :data:`GROUPS`.

Result (Dec 2026, docs/performance.md): the default groups play the same games and run
1.25x fewer machine instructions per action, but only 0-20 % more actions per CPU second
and the same PettingZoo step; not adopted, the pure path is the only one tests need.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import shutil
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("hexwar", "hexwar_stalingrad")

GROUPS: dict[str, tuple[str, ...]] = {
    "engine": ("hexwar/engine/*.py",),
    "board": ("hexwar/board/*.py", "hexwar/grid/*.py"),
    "mechanics": ("hexwar/mechanics/*.py",),
    "stalingrad": (
        "hexwar_stalingrad/ground.py",
        "hexwar_stalingrad/board.py",
        "hexwar_stalingrad/static.py",
        "hexwar_stalingrad/reinforce.py",
        "hexwar_stalingrad/air.py",
        "hexwar_stalingrad/rules.py",
        "hexwar_stalingrad/cards*.py",
        "hexwar_stalingrad/turns.py",
        "hexwar_stalingrad/units.py",
        "hexwar_stalingrad/victory.py",
    ),
    "heuristic": ("hexwar_stalingrad/heuristic*.py",),
    "interop": ("hexwar/interop/*.py", "hexwar_stalingrad/observe.py"),
}

# Left interpreted whatever the groups say: modules that are not on the per-action path
# and would only lengthen the build (files, records, interop tensors, web, study, render).
NEVER = (
    "*/__init__.py",
    "*/__main__.py",
    "hexwar/engine/fileformat.py",
    "hexwar/engine/savefile.py",
    "hexwar/engine/pickling.py",
)

# Left interpreted because the compiled module breaks: a slotted ``attrs`` class (attrs
# makes a new class) whose method calls zero-argument ``super()``; attrs rewrites the
# ``__class__`` cell of Python functions only, so the compiled method's ``super()`` sees
# the discarded class (``TypeError: super(type, obj): obj must be an instance or subtype
# of type``, ``OddsTable.__attrs_post_init__``).
BROKEN = ("hexwar/mechanics/crt.py",)

# ``annotation_typing=False``: Cython would otherwise turn annotations into type checks
# and conversions (``text: str`` raises ``TypeError`` on an int before the function's own
# ``DataError``; ``count: int`` accepts ``True``; ``allowance: float`` becomes a C
# double), so the compiled copy would not behave as the sources do (tests/test_crt.py,
# tests/test_dice.py fail).
DIRECTIVES: dict[str, object] = {"language_level": 3, "binding": True, "annotation_typing": False}


def _value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(text)
    except ValueError:
        return text


def chosen(groups: list[str], exclude: list[str]) -> list[str]:
    """The module files (paths relative to ``src``) the groups select, sorted."""
    files = sorted(
        str(p.relative_to(ROOT / "src"))
        for pkg in PACKAGES
        for p in (ROOT / "src" / pkg).rglob("*.py")
    )
    globs = [g for name in groups for g in GROUPS[name]]
    return [
        f
        for f in files
        if any(fnmatch.fnmatch(f, g) for g in globs)
        and not any(fnmatch.fnmatch(f, n) for n in (*NEVER, *BROKEN, *exclude))
    ]


def copy_sources(out: Path) -> Path:
    """Copy the packages to ``out/src`` (a fresh copy) and return that directory."""
    src = out / "src"
    if src.exists():
        shutil.rmtree(src)
    for pkg in PACKAGES:
        shutil.copytree(
            ROOT / "src" / pkg,
            src / pkg,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"),
        )
    return src


def _key(path: Path, directives: dict[str, object]) -> str:
    """The cache key of one compiled module: its source, the directives, Cython, Python."""
    import Cython

    text = json.dumps([path.read_text(), sorted(directives.items(), key=str), Cython.__version__])
    return hashlib.sha256((text + sys.version).encode()).hexdigest()[:24]


def build(
    src: Path, modules: list[str], directives: dict[str, object], jobs: int, cache: Path
) -> int:
    """Cythonize ``modules`` (paths under ``src``) and build them in place; modules whose
    source and directives were compiled before are copied from ``cache``. Returns how
    many were compiled."""
    import os

    from Cython.Build import cythonize
    from setuptools import Extension, setup

    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    cache.mkdir(parents=True, exist_ok=True)
    keys = {m: _key(src / m, directives) for m in modules}
    todo = []
    for m in modules:
        kept = cache / f"{keys[m]}{suffix}"
        if kept.exists():
            shutil.copy2(kept, src / f"{m[: -len('.py')]}{suffix}")
        else:
            todo.append(m)
    if todo:
        extensions = [
            Extension(m[: -len(".py")].replace("/", "."), [m], extra_compile_args=["-O2", "-w"])
            for m in todo
        ]
        here = Path.cwd()
        os.chdir(src)
        try:
            compiled = cythonize(
                extensions, compiler_directives=directives, nthreads=jobs, quiet=True
            )
            setup(
                name="hexwar-accel",
                ext_modules=compiled,
                script_args=[
                    "-q",
                    "build_ext",
                    "--inplace",
                    "-j",
                    str(jobs),
                    "-t",
                    str(src.parent / "tmp"),
                    "-b",
                    str(src.parent / "lib"),
                ],
            )
        finally:
            os.chdir(here)
        for m in todo:
            shutil.copy2(src / f"{m[: -len('.py')]}{suffix}", cache / f"{keys[m]}{suffix}")
    return len(todo)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--groups", default="engine,board,mechanics,stalingrad")
    p.add_argument("--exclude", action="append", default=[], help="a module glob left interpreted")
    p.add_argument("--directive", action="append", default=[], help="a Cython directive NAME=VALUE")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "accel")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument(
        "--cache", type=Path, default=ROOT / "build" / "accel-cache", help="compiled modules kept"
    )
    p.add_argument("--list", action="store_true", help="print the modules and stop")
    args = p.parse_args()
    modules = chosen(args.groups.split(","), args.exclude)
    if args.list:
        print("\n".join(modules))
        return
    directives = dict(DIRECTIVES)
    for item in args.directive:
        name, _, value = item.partition("=")
        directives[name] = _value(value)
    start = time.perf_counter()
    src = copy_sources(args.out.resolve())
    fresh = build(src, modules, directives, args.jobs, args.cache.resolve())
    seconds = time.perf_counter() - start
    print(
        f"{len(modules)} modules compiled into {src} ({fresh} built, the rest cached)"
        f" in {seconds:.0f} s",
        file=sys.stderr,
    )
    print(f"directives: {directives}", file=sys.stderr)


if __name__ == "__main__":
    main()
