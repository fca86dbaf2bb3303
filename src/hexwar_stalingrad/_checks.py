"""Where the Stalingrad data files live.

The validation helpers the loaders use are the core's :mod:`hexwar.base.datafile`
(:class:`~hexwar.base.datafile.Checker`, :func:`~hexwar.base.datafile.read_data_file`); they are
re-exported here for older imports.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from hexwar.base.datafile import Checker, read_data_file

__all__ = ["Checker", "data_path", "read_data_file"]


def data_path(name: str) -> Path:
    """The path of a data file shipped in ``hexwar_stalingrad/data``."""
    return Path(str(resources.files("hexwar_stalingrad") / "data" / name))
