"""«Бой отрядов» (Squad battle, 1930): a square-grid game written on hexwar's public API.

Run ``python -m examples.boy_otryadov`` from the repository root (see README.md).
"""

from .rules import BoyOtryadov

__all__ = ["BoyOtryadov"]
