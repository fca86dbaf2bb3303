"""Test settings shared by every test module.

Hypothesis's per-example deadline is a wall-clock limit; on a shared machine it turns
load into failures (a 313 ms example against the 200 ms default under a parallel run),
so no test here is timed: the profile below turns the deadline off everywhere.
"""

from hypothesis import settings

settings.register_profile("hexwar", deadline=None)
settings.load_profile("hexwar")
