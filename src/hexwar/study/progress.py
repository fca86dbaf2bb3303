"""The study's progress bar on stderr: games done, rate and ETA (``tqdm``; a plain text
line when tqdm is not installed)."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

__all__ = ["Progress"]


class Progress:
    """Games done out of ``total``, with their rate and the time left."""

    def __init__(self, total: int, desc: str, stream: TextIO | None = None) -> None:
        self.total, self.desc, self.done = total, desc, 0
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.bar: Any = None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError:
            self._line()
            return
        self.bar = tqdm(total=total, unit="game", file=self.stream, desc=desc, smoothing=0.1)

    def _line(self) -> None:
        spent = time.monotonic() - self.start
        rate = self.done / spent if spent > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        print(
            f"\r{self.desc}: {self.done}/{self.total} games [{rate:.2f} games/s, ETA {left:.0f} s]",
            end="\n" if self.done == self.total else "",
            file=self.stream,
            flush=True,
        )

    def update(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        else:
            self._line()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
