"""The live terminal view of a simulation: progress, tables, rates, latency, refusals.

Drawn with rich's ``Live`` a few times a second from the shared
:class:`~tavolo.cli.simulate.stats.Stats`; rates and percentiles cover the last
:data:`~tavolo.cli.simulate.stats.WINDOW_SECONDS`. The last lines of chaos and of ``tavolo
up``'s supervisor are shown under the figures, so a fault and the recovery it caused read
side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from tavolo.cli.simulate.chaos import Struck
from tavolo.cli.simulate.stats import Stats


def render(
    stats: Stats,
    players: int,
    duration: float,
    phase: str,
    chaos_lines: Callable[[], list[str]],
) -> RenderableType:
    """One frame of the live view."""
    elapsed = stats.elapsed()
    calls_s, actions_s, p50, p99 = stats.live_rates()
    counts = stats.table_counts()
    figures = Table.grid(padding=(0, 3))
    figures.add_column(style="bold")
    figures.add_column()
    figures.add_column(style="bold")
    figures.add_column()
    figures.add_row(
        "players",
        f"{stats.players_ready}/{players} playing",
        "tables",
        f"{counts.get('PLAYING', 0)} running, {counts.get('FINISHED', 0)} finished, "
        f"{counts.get('ABORTED', 0)} aborted",
    )
    figures.add_row(
        "actions/s",
        f"{actions_s:.1f} ({stats.actions} in all)",
        "calls/s",
        f"{calls_s:.1f} ({sum(stats.calls.values())} in all)",
    )
    figures.add_row(
        "latency",
        f"p50 {p50 * 1000:.0f} ms  p99 {p99 * 1000:.0f} ms",
        "chat, breaks",
        f"{stats.chats} messages, {stats.comebacks} come-backs",
    )
    errors = ", ".join(f"{code} {n}" for code, n in stats.codes.most_common()) or "none"
    bad = Text(errors, style="red" if stats.unexpected else "")
    progress = ProgressBar(total=max(duration, 1.0), completed=min(elapsed, duration), width=50)
    header = Text(f"{phase}  {elapsed:.0f}s of {duration:.0f}s  ")
    lines = chaos_lines()[-6:]
    return Panel(
        Group(
            Group(header, progress),
            figures,
            Text.assemble(("refusals by status  ", "bold"), bad),
            Text("\n".join(lines) if lines else "no fault yet", style="dim"),
        ),
        title="tavolo simulate",
    )


class Happenings:
    """What ``--plain`` prints as it happens: each fault when it strikes and when its
    target is back, and each line of ``tavolo up``'s supervisor, each once."""

    def __init__(self) -> None:
        self.struck = 0
        self.recovered: set[int] = set()
        self.supervised = 0

    def fresh(self, struck: Sequence[Struck], supervisor: Sequence[str]) -> list[str]:
        """The lines not printed yet, chaos first, in the order they happened."""
        lines = [
            f"{r.at:6.0f}s  chaos: {r.fault.describe()} {r.detail}".rstrip()
            for r in struck[self.struck :]
        ]
        self.struck = len(struck)
        for n, record in enumerate(struck):
            if record.recovered_after is not None and n not in self.recovered:
                self.recovered.add(n)
                lines.append(
                    f"{record.at + record.recovered_after:6.0f}s  chaos: after "
                    f"{record.fault.describe()}, back in {record.recovered_after:.0f}s"
                )
        lines += [f"        supervisor: {text}" for text in supervisor[self.supervised :]]
        self.supervised = len(supervisor)
        return lines
