"""Play and watch any hexwar game in the browser, every rule enforced (``docs/web.md``).

The top layer: it may import every other layer, and none imports it. Needs the ``[web]``
extra (Starlette, uvicorn) only to serve (:mod:`hexwar.web.app`, :mod:`hexwar.web.serve`);
:mod:`hexwar.web.games` and :mod:`hexwar.web.session` need nothing more than the core.
"""

from __future__ import annotations

from hexwar.web.games import BoardView, WebGame, generic

__all__ = ["BoardView", "WebGame", "generic"]
