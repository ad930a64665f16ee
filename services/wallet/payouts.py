"""Who gets how many coins when a table ends (pure: no I/O).

**Stake pots (MODE-4).** The whole pot goes to the winners, with no commission. The
winners are the human seats holding the best place at the table: every seat that shares
first place, which for a partnership game is the winning partnership. The pot is split
evenly; when it does not divide, the remainder goes one coin at a time to the winners in
ascending seat order (seat 0 first) — deterministic, and the escrow ends at exactly zero.
If no human holds first place (only possible with a bot seat, which stake tables do not
have) every stake is refunded instead. Boosters and VIP passes never touch a pot (MODE-5).

**Rewards (MODE-1..3, MODE-5)**, paid from the issuance account, with the defaults of
:class:`RewardRates` (each configurable, see ``tavolo.wallet.config``):

- versus computer (MODE-1): nothing;
- online (MODE-3): every human seat by place. Place ``p`` of ``n`` seats earns the
  placement table's row for ``n`` if one is configured, else
  ``ceil(first_place * (n - p + 1) / n)``: with the default 100, 4 seats earn 100, 75, 50,
  25 and 2 seats 100, 50. Tied seats share a place and so earn the same;
- versus friends (MODE-2): only seats in first place, at ``friends_percent`` (50) of the
  online first-place rate;
- stake tables (MODE-4) pay the pot only, no reward **[decision]**: the coins at stake are
  the prize, and issuance stays tied to play that risks nothing;
- the gold booster (x2) and the VIP pass (x1.5) multiply a reward, together x3, rounded
  down once after both (MODE-5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tavolo.wallet.facts import Mode, SeatResult


def winners(seats: Sequence[SeatResult]) -> list[SeatResult]:
    """Human seats sharing the best place, in seat order; empty when a bot holds it."""
    placed = [s for s in seats if s.place > 0]
    if not placed:
        return []
    best = min(s.place for s in placed)
    return sorted((s for s in placed if s.place == best and s.human), key=lambda s: s.seat)


def split_pot(pot: int, winning_seats: Sequence[int]) -> dict[int, int]:
    """The pot split evenly over ``winning_seats``; the remainder to the lowest seats."""
    if pot < 0:
        raise ValueError(f"a pot cannot be negative: {pot}")
    ordered = sorted(set(winning_seats))
    if not ordered:
        raise ValueError("a pot needs at least one winner")
    share, remainder = divmod(pot, len(ordered))
    return {seat: share + (1 if i < remainder else 0) for i, seat in enumerate(ordered)}


@dataclass(frozen=True, slots=True)
class RewardRates:
    """Coins paid by mode and place, and the factors of boosters (percentages, integers)."""

    first_place: int = 100
    placement: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    friends_percent: int = 50
    booster_percent: int = 200
    vip_percent: int = 150

    def __post_init__(self) -> None:
        for name in ("first_place", "friends_percent", "booster_percent", "vip_percent"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")
        for count, row in self.placement.items():
            if count < 1 or len(row) > count or any(c < 0 for c in row):
                raise ValueError(
                    f"placement row for {count} seats must list at most {count}"
                    f" non-negative amounts, not {row}"
                )

    def online(self, place: int, seat_count: int) -> int:
        """Base coins for ``place`` at an online table of ``seat_count`` seats."""
        if place < 1 or place > seat_count:
            return 0
        row = self.placement.get(seat_count)
        if row is not None:
            return row[place - 1] if place <= len(row) else 0
        return -(-self.first_place * (seat_count - place + 1) // seat_count)

    def boosted(self, base: int, seat: SeatResult) -> int:
        """``base`` times the seat's booster and VIP factors, rounded down once."""
        numerator = base
        denominator = 1
        if seat.booster:
            numerator *= self.booster_percent
            denominator *= 100
        if seat.vip:
            numerator *= self.vip_percent
            denominator *= 100
        return numerator // denominator


def rewards(mode: Mode, seats: Sequence[SeatResult], rates: RewardRates) -> dict[int, int]:
    """Coins from issuance per seat for a finished table (seats paid nothing are left out)."""
    count = len(seats)
    paid: dict[int, int] = {}
    if mode is Mode.ONLINE:
        for seat in seats:
            if seat.human:
                paid[seat.seat] = rates.boosted(rates.online(seat.place, count), seat)
    elif mode is Mode.VERSUS_FRIENDS:
        base = rates.online(1, count) * rates.friends_percent // 100
        best = min((s.place for s in seats if s.place > 0), default=0)
        for seat in seats:
            if seat.human and seat.place == best:
                paid[seat.seat] = rates.boosted(base, seat)
    return {seat: coins for seat, coins in paid.items() if coins > 0}
