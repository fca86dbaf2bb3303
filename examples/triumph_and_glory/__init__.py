"""Triumph & Glory «Триумф и Слава» (GMT 2004): a Shevardino example on the hexwar core.

>>> from examples.triumph_and_glory import TriumphAndGlory
"""

from .rules import TriumphAndGlory
from .scenario import load_scenario

__all__ = ["TriumphAndGlory", "load_scenario"]
