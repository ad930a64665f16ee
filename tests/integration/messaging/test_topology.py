"""Names are derived once from the namespace (no servers needed)."""

from __future__ import annotations

import pytest
from nats.js.api import StorageType

from tavolo.messaging import DEFAULT_DUPLICATE_WINDOW, RetryPolicy, Topology, subject_token


def test_stream_and_subjects_follow_the_namespace() -> None:
    topology = Topology("tavolo")
    assert topology.events_stream == "TAVOLO_EVENTS"
    assert topology.all_events == "tavolo.events.>"
    assert topology.table_finished == "tavolo.events.table_finished"
    assert topology.table_aborted == "tavolo.events.table_aborted"
    assert topology.match_formed == "tavolo.events.match_formed"
    assert topology.match_cancelled == "tavolo.events.match_cancelled"
    assert topology.account_frozen == "tavolo.events.account_frozen"
    assert topology.account_unfrozen == "tavolo.events.account_unfrozen"
    assert topology.subject_for("CoinsPaidOut") == "tavolo.events.coins_paid_out"
    assert topology.consumer_name("wallet", "TableFinished") == "wallet_table_finished"


@pytest.mark.parametrize(
    ("event_type", "token"),
    [
        ("TableFinished", "table_finished"),
        ("table_finished", "table_finished"),
        ("XPAwarded", "xp_awarded"),
        ("Round2Scored", "round2_scored"),
    ],
)
def test_event_types_become_subject_tokens(event_type: str, token: str) -> None:
    assert subject_token(event_type) == token


@pytest.mark.parametrize("bad", ["table.finished", "a>b", "", "with space"])
def test_types_that_would_break_subjects_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="cannot name a subject"):
        subject_token(bad)


def test_namespace_must_be_a_plain_word() -> None:
    with pytest.raises(ValueError, match="namespace"):
        Topology("a.b")


def test_stream_is_stored_on_file_with_a_duplicate_window() -> None:
    config = Topology("x").events_stream_config()
    assert config.storage == StorageType.FILE
    assert config.duplicate_window == DEFAULT_DUPLICATE_WINDOW == 900
    assert config.subjects == ["x.events.>"]


def test_retry_delays_double_up_to_a_ceiling() -> None:
    policy = RetryPolicy(max_deliver=8, first_delay=0.5, max_delay=3)
    assert [policy.delay(n) for n in range(1, 6)] == [0.5, 1, 2, 3, 3]
