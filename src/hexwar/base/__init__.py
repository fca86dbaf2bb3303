"""The base layer: the error tree and validated data-file reading.

:mod:`hexwar.base.errors` holds every error class of the core under one base,
:class:`~hexwar.base.errors.HexwarError`; :mod:`hexwar.base.datafile` reads and checks
JSON/TOML data files. This layer imports nothing else of ``hexwar``; every other layer
may import it.
"""
