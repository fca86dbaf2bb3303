"""``python -m hexwar_stalingrad``: the command line (:mod:`hexwar_stalingrad.cli`)."""

from hexwar_stalingrad.cli import main

raise SystemExit(main())
