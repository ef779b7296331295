"""A progress bar on standard error (rich), silent when standard error is not a terminal."""

from __future__ import annotations

import sys
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


@contextmanager
def progress_bar(total: int, description: str):
    console = Console(file=sys.stderr)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeRemainingColumn(),
    )
    with Progress(
        *columns, console=console, transient=False, disable=not console.is_terminal
    ) as bar:
        task = bar.add_task(description, total=total, status="")

        def advance(status: str = "") -> None:
            bar.update(task, advance=1, status=status)

        yield advance
