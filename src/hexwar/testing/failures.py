"""What the kit shows while it runs and leaves behind on a failure: a progress display
(:class:`Progress`) and the failing game as a record file (:func:`write_record`)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from hexwar.engine.records import record_of
from hexwar.engine.state import State

__all__ = ["Progress", "write_record"]


class Progress:
    """Games done, on stderr: a ``tqdm`` bar if tqdm is installed, else ``rich``'s, else
    a plain text line."""

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total, self.done, self.stream = total, 0, stream or sys.stderr
        self.bar: Any = None
        self.rich: Any = None
        try:
            from tqdm import tqdm  # type: ignore[import-untyped, import-not-found, unused-ignore]

            self.bar = tqdm(total=total, unit="game", file=self.stream, desc="random games")
            return
        except ImportError:
            pass
        try:
            from rich.console import Console  # type: ignore[import-not-found, unused-ignore]
            from rich.progress import Progress  # type: ignore[import-not-found, unused-ignore]

            self.rich = Progress(console=Console(file=self.stream))
            self.task = self.rich.add_task("random games", total=total)
            self.rich.start()
        except ImportError:
            self._line()

    def _line(self, steps: int = 0, failed: int = 0) -> None:
        end = "\n" if self.done == self.total else ""
        print(
            f"\rrandom games {self.done}/{self.total}, {steps} steps, {failed} violations",
            end=end,
            file=self.stream,
            flush=True,
        )

    def update(self, steps: int, failed: int) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix(steps=steps, violations=failed, refresh=False)
            self.bar.update(1)
        elif self.rich is not None:
            self.rich.update(self.task, advance=1)
        else:
            self._line(steps, failed)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.rich is not None:
            self.rich.stop()


def write_record(state: State, game: int, seed: int, folder: Path | None) -> str | None:
    """The game so far as a record file (:func:`hexwar.engine.records.record_of`), its path;
    ``None`` if the state's history does not lead to its position."""
    try:
        text = record_of(state, seed=seed).to_json()
    except Exception:
        return None
    folder = folder if folder is not None else Path(tempfile.mkdtemp(prefix="hexwar-failure-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"seed{seed}-game{game}-step{len(state.history)}.json"
    path.write_text(text, encoding="utf-8")
    return str(path)
