"""The tutorial's game «Переправа» (The Crossing, ``docs/tutorial.md``) as a module."""
