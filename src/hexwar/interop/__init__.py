"""The interop layer: every hexwar game as an OpenSpiel game, a PettingZoo AEC environment
and a Gymnasium environment (the ``openspiel``, ``pettingzoo`` and ``gymnasium`` extras).

- :mod:`hexwar.interop.adapter`: the framework-free core of the three — one token = one
  integer action (:class:`~hexwar.interop.adapter.TokenGame`,
  :class:`~hexwar.interop.adapter.TokenState`); needs no extra;
- :mod:`hexwar.interop.openspiel`: registered python games (``pyspiel``);
- :mod:`hexwar.interop.pettingzoo`: :class:`~hexwar.interop.pettingzoo.HexwarAEC`;
- :mod:`hexwar.interop.gymnasium`: :class:`~hexwar.interop.gymnasium.HexwarEnv`, one seat
  against built-in bots.

The frameworks are imported only by their own modules, so the core works without them.
This layer may import every other layer; nothing imports it. See ``docs/interop.md``.
"""

from hexwar.interop.adapter import TokenState
from hexwar.interop.game import CHANCE_PLAYER, TERMINAL_PLAYER, TokenGame

__all__ = ["CHANCE_PLAYER", "TERMINAL_PLAYER", "TokenGame", "TokenState"]
