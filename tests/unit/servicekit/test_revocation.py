"""Which tokens a service refuses after a suspension (PCG-4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.revocation import Revocations, Suspension

SINCE = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
BEFORE = int(SINCE.timestamp()) - 60
AFTER = int(SINCE.timestamp()) + 3600


def player(player_id: str, issued_at: int) -> Principal:
    return Principal(player_id, frozenset({Role.PLAYER}), issued_at=issued_at)


def test_every_token_of_a_suspended_person_is_refused_while_it_lasts() -> None:
    revocations = Revocations([Suspension("s1", ("ann", "ann2"), SINCE, reason="cheating")])
    for who in ("ann", "ann2"):
        refusal = revocations.refusal(player(who, AFTER), SINCE + timedelta(minutes=1))
        assert (
            refusal
            == "this account is suspended until a moderator lifts it: its sessions are revoked"
        )
    assert revocations.refusal(player("bob", BEFORE), SINCE) is None


def test_after_a_suspension_ends_only_the_tokens_from_before_it_stay_revoked() -> None:
    ends = SINCE + timedelta(days=31)
    revocations = Revocations([Suspension("s1", ("ann",), SINCE, until=ends)])
    during = revocations.refusal(player("ann", AFTER), ends - timedelta(seconds=1))
    assert during is not None and "until 2026-04-02 12:00 UTC" in during
    later = ends + timedelta(seconds=1)
    assert revocations.refusal(player("ann", BEFORE), later) is not None
    assert revocations.refusal(player("ann", int(later.timestamp())), later) is None


def test_a_lifted_suspension_is_not_undone_by_its_own_event_replayed() -> None:
    revocations = Revocations()
    revocations.apply(Suspension("s1", ("ann",), SINCE))
    revocations.apply(Suspension("s1", ("ann",), SINCE, lifted=True))
    revocations.apply(Suspension("s1", ("ann",), SINCE))  # AccountsSuspended delivered again
    assert revocations.refusal(player("ann", AFTER), SINCE + timedelta(hours=2)) is None
    assert revocations.refusal(player("ann", BEFORE), SINCE + timedelta(hours=2)) is not None


def test_a_login_in_the_same_second_as_a_quick_lift_is_good() -> None:
    """Tokens count whole seconds: a moderator who lifts a suspension at once must not
    leave the player's next login refused."""
    revocations = Revocations([Suspension("s1", ("ann",), SINCE.replace(microsecond=900_000))])
    revocations.apply(Suspension("s1", ("ann",), SINCE, lifted=True))
    same_second = int(SINCE.timestamp())
    assert revocations.refusal(player("ann", same_second), SINCE + timedelta(seconds=1)) is None
