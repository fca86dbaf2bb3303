"""hexwar_stalingrad: the board game «Сталинград» (Stalingrad, 1942) on the hexwar engine."""
