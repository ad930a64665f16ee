"""A tournament's event stream (PCG-7): decisions, and a rebuild that loses nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from tavolo.lobby.tournaments import stream as S
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument
from tavolo.wallet.prizes import tournament_prizes

OPENS = datetime(2026, 12, 1, 18, tzinfo=UTC)
STARTS = OPENS + timedelta(hours=1)
SEED = b"committed at creation, revealed at the draw"
SPEC = S.TournamentSpec(
    game="pika",
    options={"match_length": "hands:3"},
    max_entrants=8,
    opens_at=OPENS,
    starts_at=STARTS,
    fee=100,
    split=(60, 30, 10),
    no_show="bot",
)


class Log:
    """The stream as a list: every decision's events are appended, then folded again."""

    def __init__(self) -> None:
        self.events: list[S.Event] = [S.create("t1", SPEC, SEED)]

    @property
    def now(self) -> S.Tournament:
        return S.rebuild("t1", self.events)

    def add(self, *events: S.Event) -> S.Tournament:
        self.events.extend(events)
        return self.now


def registered(count: int) -> Log:
    log = Log()
    for i in range(count):
        log.add(S.register(log.now, f"p{i}", OPENS))
    return log


def test_registration_is_open_between_its_window_and_refuses_twice_and_when_full() -> None:
    log = registered(8)
    assert log.now.entrants == tuple(f"p{i}" for i in range(8))
    with pytest.raises(FailedPrecondition, match="full"):
        S.register(log.now, "p9", OPENS)
    with pytest.raises(FailedPrecondition, match="already registered"):
        S.register(log.now, "p0", OPENS)
    with pytest.raises(FailedPrecondition, match="registration opens at"):
        S.register(Log().now, "early", OPENS - timedelta(minutes=1))
    log.add(S.unregister(log.now, "p3", OPENS))
    assert "p3" not in log.now.entrants
    with pytest.raises(FailedPrecondition, match="closed"):
        S.unregister(log.now, "p4", STARTS)


def test_pcg_7_each_registration_has_its_own_hold_and_the_draw_names_the_last_ones() -> None:
    """Withdrawing releases a hold for good: entering again records a new one, the draw
    sends the wallet the holds that stand, and a hold id cannot serve two entrants."""
    log = Log()
    for i in range(4):
        log.add(S.register(log.now, f"p{i}", OPENS, hold_id=f"h-p{i}-a"))
    log.add(S.unregister(log.now, "p1", OPENS))
    assert "p1" not in log.now.holds
    with pytest.raises(FailedPrecondition, match="another registration"):
        S.register(log.now, "p1", OPENS, hold_id="h-p2-a")
    log.add(S.register(log.now, "p1", OPENS, hold_id="h-p1-b"))
    assert log.now.holds["p1"] == "h-p1-b"
    _, drawn = S.start(log.now, SEED, STARTS)
    assert drawn["holds"] == {"p0": "h-p0-a", "p1": "h-p1-b", "p2": "h-p2-a", "p3": "h-p3-a"}


def test_too_few_entrants_cancel_it_and_every_fee_is_refunded_once() -> None:
    log = registered(3)
    type_, data = S.start(log.now, SEED, STARTS)
    assert type_ == "tournament_cancelled"
    assert data["refunds"] == {"p0": 100, "p1": 100, "p2": 100}
    log.add((type_, data))
    assert log.now.status == S.CANCELLED
    with pytest.raises(FailedPrecondition, match="cancelled"):
        S.start(log.now, SEED, STARTS)


def test_the_draw_needs_the_committed_seed_and_the_start_time() -> None:
    log = registered(5)
    with pytest.raises(FailedPrecondition, match="start time"):
        S.start(log.now, SEED, OPENS)
    with pytest.raises(InvalidArgument, match="commitment"):
        S.start(log.now, b"another seed", STARTS)


def test_a_whole_tournament_rebuilt_from_its_stream_at_every_event_pays_the_pot_once() -> None:
    log = registered(6)
    log.add(S.start(log.now, SEED, STARTS))
    assert log.now.status == S.PLAYING
    tables = 0
    while log.now.status == S.PLAYING:
        bracket = log.now.bracket
        assert bracket is not None
        for match in bracket.ready():
            tables += 1
            log.add(S.open_match(log.now, match.round, match.index, f"table-{tables}"))
            assert match.a is not None
            log.add(*S.decide_match(log.now, f"table-{tables}", match.a, "table"))
    final = log.now
    assert final.status == S.FINISHED and tables == 5  # 6 entrants, 2 byes
    assert final.paid == {} and not final.prizes_settled  # the wallet computes the prizes
    finished = dict(log.events[-1][1])
    assert (finished["pot"], finished["split"]) == (600, [60, 30, 10])
    places = final.places
    paid = tournament_prizes(finished["pot"], SPEC.split, places)
    final = log.add(*S.settle(final, paid, 600))
    assert final.paid == {p: c for p, c in paid.items() if c} and final.prizes_settled
    assert S.settle(final, paid, 600) == []  # told again: recorded once
    # A replica that died at any point rebuilds exactly the tournament of that moment.
    for cut in range(1, len(log.events) + 1):
        assert S.rebuild("t1", log.events[:cut]).version == cut
    with pytest.raises(FailedPrecondition, match="already decided"):
        S.decide_match(final, "table-1", final.entrants[0], "table")


def test_a_bad_spec_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="sums to 100"):
        S.create("t2", replace(SPEC, split=(50, 30)), SEED)
    with pytest.raises(InvalidArgument, match="4 to 256"):
        S.create("t2", replace(SPEC, max_entrants=2), SEED)
    with pytest.raises(InvalidArgument, match="'bot' or 'forfeit'"):
        S.create("t2", replace(SPEC, no_show="sulk"), SEED)
