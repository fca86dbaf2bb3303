"""The testing layer: the verification kit and hypothesis strategies (the ``test`` extra).

:mod:`hexwar.testing.kit` checks any ruleset the way OpenSpiel checks its games (its
per-state checks in :mod:`hexwar.testing.checks`),
:mod:`hexwar.testing.machine` holds the hypothesis state machine and state strategy,
:mod:`hexwar.testing.failures` the progress display and failure records,
:mod:`hexwar.testing.policies` the random players' policies,
:mod:`hexwar.testing.lengths` the check of a declared game length; their
names are re-exported here (``from hexwar.testing import check_random_games``).
:mod:`hexwar.testing.strategies` holds hypothesis strategies of hexes, maps and
placements. It may import every layer but :mod:`hexwar.render`; nothing in the core
imports it.
"""

from hexwar.testing.checks import check_step, check_tokens
from hexwar.testing.kit import (
    RulesViolation,
    SimulationReport,
    Violation,
    check_random_games,
    check_rejects,
    checking_reads,
    outputs_under_hash_seeds,
)
from hexwar.testing.lengths import LengthReport, check_length_bound
from hexwar.testing.machine import FAST_SHRINK, RulesStateMachine, random_states
from hexwar.testing.policies import Policy, Weighted, uniform

__all__ = [
    "FAST_SHRINK",
    "LengthReport",
    "Policy",
    "RulesStateMachine",
    "RulesViolation",
    "SimulationReport",
    "Violation",
    "Weighted",
    "check_length_bound",
    "check_random_games",
    "check_rejects",
    "check_step",
    "check_tokens",
    "checking_reads",
    "outputs_under_hash_seeds",
    "random_states",
    "uniform",
]
