"""How the league prints a pairing: a line as it finishes, a detail line on request, and
at the end a markdown table ready for the README."""

from __future__ import annotations

from dataclasses import dataclass

from league.play import CHIP_GAMES, Pairing, Tally
from league.stats import interval, percentile, wilson

PUBLISHED = {
    3: (
        ("Yan et al. 2004, greedy, every card face up", 0.1305),
        ("Klondike3-Simulator, greedy, 80M deals", 0.1781),
    ),
}
"""Published greedy Klondike solvers' draw-3 win rates, printed beside the stronger
level's: Yan, Diaconis, Rusmevichientong, Van Roy, "Solitaire: Man Versus Machine", NIPS
17 (2004), thoughtful Klondike (an easier game than ours, whose bots see only their
view); dacracot/Klondike3-Simulator (``winningPercentage.txt`` at 1ab77cc), a greedy
player in a fixed move order with a rescue move. We know of none for draw 1."""


def unit(name: str) -> tuple[str, float]:
    """What a pairing's figure counts, and its even value."""
    if name == "solitario":
        return "win rate, stronger less weaker", 0.0
    if name in CHIP_GAMES:
        return "chips a hand, stronger seat less weaker", 0.0
    return "share of weaker seats beaten", 0.5


@dataclass(frozen=True)
class Row:
    """One pairing's printed figures."""

    pairing: Pairing
    tally: Tally
    seconds: float

    @property
    def steps(self) -> str:
        return f"{self.pairing.weak}<{self.pairing.strong}"

    def figure(self) -> tuple[float, float, float]:
        return interval(self.tally.figures)

    def above_even(self) -> bool:
        _, low, _ = self.figure()
        return low > unit(self.pairing.table.name)[1]

    def times(self, level: str) -> tuple[float, float]:
        spent = self.tally.times.get(level, [])
        return percentile(spent, 0.5) * 1e3, percentile(spent, 0.99) * 1e3

    def rates(self) -> str:
        """Solitario: each level's win rate with its Wilson interval."""
        if not self.tally.rates:
            return ""
        n = len(self.tally.rates)
        parts = []
        for level, k in ((self.pairing.strong, 0), (self.pairing.weak, 1)):
            wins = sum(r[k] for r in self.tally.rates)
            low, high = wilson(wins, n)
            parts.append(f"{level} {wins / n:.1%} ({low:.1%}-{high:.1%})")
        return ", ".join(parts)


def line(row: Row) -> str:
    mean, low, high = row.figure()
    table = row.pairing.table
    what, _ = unit(table.name)
    times = "  ".join(
        f"{p50:5.2f}/{p99:6.2f}"
        for p50, p99 in (row.times(row.pairing.weak), row.times(row.pairing.strong))
    )
    rates = f" ({row.rates()})" if row.tally.rates else ""
    return (
        f"{table.label:<19}{table.seats:>5}  {row.steps:<15}{mean:+8.3f}  "
        f"[{low:+.3f}, {high:+.3f}]  {times}  {what}{rates}  ({row.seconds:.0f}s)"
    )


HEADER = (
    f"{'game':<19}{'seats':>5}  {'pairing':<15}{'figure':>8}  {'95% CI':<18} "
    "decision ms p50/p99 (weaker, stronger)  unit"
)


def detail(row: Row) -> list[str]:
    """What the per-game benches printed beside the figure: first places, score margin,
    actions a deal, deals cut at the action limit, published Klondike rates."""
    out = []
    tally, table = row.tally, row.pairing.table
    if tally.wins:
        mean, low, high = interval(tally.wins)
        m, mlo, mhi = interval(tally.margins)
        out.append(
            f"    {row.pairing.strong} first {mean:.1%} "
            f"(95% CI {max(0.0, low):.1%}-{min(1.0, high):.1%}); "
            f"score margin {m:+.1f} ({mlo:+.1f}, {mhi:+.1f}) a deal"
        )
    deals = max(1, len(tally.figures))
    worst = ", ".join(
        f"{level} {max(tally.times.get(level, [0.0])) * 1e3:.2f}"
        for level in dict.fromkeys((row.pairing.weak, row.pairing.strong))
    )
    out.append(
        f"    {tally.actions / deals:.0f} actions a deal; {tally.cut} games cut at the limit; "
        f"slowest decision ms: {worst}"
    )
    if table.name == "solitario" and row.pairing.strong == "hard" and tally.rates:
        n = len(tally.rates)
        low, high = wilson(sum(r[0] for r in tally.rates), n)
        for source, rate in PUBLISHED.get(int(table.options.get("draw", 1)), ()):
            verdict = (
                "hard wins at least as often"
                if low >= rate
                else ("its interval includes it" if high >= rate else "hard wins less often")
            )
            out.append(f"    published draw 3: {source}: {rate:.2%} ({verdict})")
    return out


def markdown(rows: list[Row], deals: int) -> str:
    """The league as a markdown table: one row a pairing, the figure, its interval,
    whether the interval lies above even, and decision CPU time."""
    out = [
        f"{deals} seat-rotated deals a pairing; 95% CI; decision CPU ms p50 / p99.",
        "",
        "| game | seats | pairing | figure | 95% CI | above even | weaker ms | stronger ms |",
        "| --- | ---: | --- | ---: | --- | :---: | ---: | ---: |",
    ]
    for row in rows:
        mean, low, high = row.figure()
        table = row.pairing.table
        fmt = ".1%" if table.name == "solitario" else (".2f" if table.name in CHIP_GAMES else ".3f")
        weak = "{:.2f} / {:.2f}".format(*row.times(row.pairing.weak))
        strong = "{:.2f} / {:.2f}".format(*row.times(row.pairing.strong))
        figure = f"{mean:+{fmt}}"
        if row.tally.rates:
            figure += f" ({row.rates()})"
        out.append(
            f"| {table.label} | {table.seats} | {row.steps} | {figure} | "
            f"{low:+{fmt}} to {high:+{fmt}} | {'yes' if row.above_even() else 'no'} | "
            f"{weak} | {strong} |"
        )
    out += [
        "",
        "Figures: places games, the share of weaker seats the stronger finished ahead of "
        "(even 0.500); Bestia, Poker, Sette e mezzo, chips a hand, stronger seat less weaker "
        "(even 0); Solitario, win rate stronger less weaker on the same deals (even 0).",
    ]
    return "\n".join(out)
