"""Collusion signals (PCG-3): a pair who dump stakes and spare each other in Pika, among
honest players, top the ranking; no honest pair shows play signals; the projection
rebuilds exactly. ``test_ranking_report`` prints the ranking."""

from __future__ import annotations

import pytest

from tavolo.lobby.social.conduct.collusion import (
    CollusionProjection,
    SessionSeen,
    TableResult,
    TurnPassed,
    captures_of,
    rebuild,
    rule_events,
    turns_of,
)
from tavolo.lobby.social.conduct.collusion_signals import (
    CLAIMED_INSTALLATION,
    FARMING_CAP_PER_DAY,
    FARMING_MIN_TABLES,
    SAME_ADDRESS,
    SAME_INSTALLATION,
    PairSignals,
    is_platform_address,
    ranked,
)

from .collusion_world import PAIR, world

PLAY_SIGNALS = {"together", "coin_flow", "soft_play"}


def honest(signals: list[PairSignals]) -> list[PairSignals]:
    return [s for s in signals if not set(s.players) & set(PAIR)]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_colluding_pair_tops_the_signals_even_from_separate_installations(seed: int) -> None:
    signals = ranked(rebuild(world(seed, pair_shares_installation=False)))
    top = signals[0]
    assert top.players == ("dumper", "taker")
    kinds = {s.kind for s in top.signals}
    assert {"coin_flow", "soft_play"} <= kinds
    assert all(not PLAY_SIGNALS & {s.kind for s in pair.signals} for pair in honest(signals))
    assert all(pair.score < top.score / 3 for pair in honest(signals))


def test_honest_players_alone_raise_no_play_signal() -> None:
    for seed in (3, 4, 5):
        facts = [
            f
            for f in world(seed, pika_games=120, rigged=0)
            if not (isinstance(f, TableResult | TurnPassed) and f.table_id.startswith("pika-"))
            or not _pair_seated(f)
        ]
        signals = honest(ranked(rebuild(facts)))
        assert [(s.players, [x.kind for x in s.signals]) for s in signals] == [
            (("honest-0", "honest-1"), ["same_address"])
        ]


def _pair_seated(fact: object) -> bool:
    if isinstance(fact, TableResult):
        return bool(set(fact.places) & set(PAIR))
    assert isinstance(fact, TurnPassed)
    return fact.actor in PAIR or fact.next_actor in PAIR


def test_the_projection_rebuilds_exactly_and_counts_a_redelivered_fact_once() -> None:
    facts = world(7, pika_games=40)
    whole = ranked(rebuild(facts))
    stepwise = CollusionProjection()
    for fact in facts[: len(facts) // 2]:
        stepwise.apply(fact)
    for fact in facts:  # the first half again: redeliveries
        stepwise.apply(fact)
    assert ranked(stepwise) == whole
    assert ranked(rebuild(facts)) == whole


def test_pika_turns_mark_the_seat_a_stack_was_put_on() -> None:
    events = [
        {"type": "play", "seat": 0, "card": "R5"},
        {"type": "play", "seat": 3, "card": "R+2", "stack": 2},
        {"type": "pika", "seat": 0},
        {"type": "take", "seat": 2, "cards": ["B1", "B2"], "lapsed": 0},
        {"type": "draw", "seat": 1, "cards": ["G3"]},
        {"type": "keep", "seat": 1},
        {"type": "round_end"},
        {"type": "play", "seat": 0, "card": "Y+2", "stack": 2},
    ]
    turns = turns_of("t", ["a", "b", None, "d"], events)
    assert [(t.actor, t.next_actor, t.penalty) for t in turns] == [("a", "d", False)]
    turns = turns_of("t", ["a", "b", "c", "d"], events)
    assert [(t.actor, t.next_actor, t.penalty) for t in turns] == [
        ("a", "d", False),
        ("d", "c", True),
        ("c", "b", False),
    ]


def test_fishing_turns_mark_who_took_the_card_the_seat_before_had_laid() -> None:
    events = [
        {"type": "card_laid", "seat": 0, "card": "7D"},
        {"type": "capture", "seat": 1, "card": "7C", "capture": ["7D"], "scopa": False},
        {"type": "card_laid", "seat": 2, "card": "3S"},
        {"type": "capture", "seat": 0, "card": "5B", "capture": ["2C", "3C"], "scopa": False},
        {"type": "card_laid", "seat": 1, "card": "KD"},
        {"type": "cards_dealt", "hands": [[], [], []]},
        {"type": "card_laid", "seat": 2, "card": "1S"},
        {"type": "hand_scored"},
        {"type": "card_laid", "seat": 0, "card": "2S"},
    ]
    turns = captures_of("t", ["a", "b", "c"], events)
    # b took a's 7; a left c's 3 for two other cards; c left b's king; a new hand starts
    # with nothing laid before it.
    assert [(t.actor, t.next_actor, t.penalty) for t in turns] == [
        ("b", "a", True),
        ("a", "c", False),
        ("c", "b", False),
    ]
    assert [(t.actor, t.next_actor) for t in captures_of("t", ["a", None, "c"], events)] == [
        ("a", "c")
    ]


def test_fishing_turns_from_a_real_scopa_game_follow_every_laid_card() -> None:
    import random
    from itertools import pairwise

    from tavolo.cardgames.registry import get_game

    game = get_game("scopa")
    state = game.new_game(None, 3, b"seed-of-a-fishing-table")
    rng = random.Random(3)
    events: list[dict[str, object]] = []
    while game.to_act(state):
        (seat,) = game.to_act(state)
        state, produced = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        events += produced
    turns = captures_of("t", ["a", "b", "c"], events)
    # Counted again another way: hand by hand, each play right after another seat's
    # laid card is one chance to take it.
    chances = 0
    hand: list[dict[str, object]] = []
    for event in [*events, {"type": "hand_scored"}]:
        if event["type"] == "hand_scored":
            chances += sum(
                1
                for before, after in pairwise(hand)
                if before["type"] == "card_laid" and before["seat"] != after["seat"]
            )
            hand = []
        elif event["type"] in ("card_laid", "capture"):
            hand.append(event)
    assert len(turns) == chances
    assert any(t.penalty for t in turns) and not all(t.penalty for t in turns)


def test_turns_are_read_from_a_table_logs_action_events() -> None:
    log = [
        ("table_opened", {"game": "pika"}),
        ("action", {"seat": 0, "events": [{"type": "play", "seat": 0, "card": "R+2", "stack": 2}]}),
        ("action", {"seat": 3, "events": [{"type": "take", "seat": 3, "cards": ["B1", "B2"]}]}),
        ("table_finished", {"seed": "00"}),
    ]
    turns = turns_of("t", ["a", "b", "c", "d"], rule_events(log))
    assert [(t.actor, t.next_actor, t.penalty) for t in turns] == [("a", "d", True)]


@pytest.mark.parametrize("address", ["10.0.0.1", "127.0.0.1", "::1", "::ffff:127.0.0.1", "pr"])
@pytest.mark.parametrize("same_address", [True, False])
@pytest.mark.parametrize("same_installation", [True, False])
def test_pcg_3_what_the_server_observes_outweighs_what_the_client_claims(
    address: str, same_address: bool, same_installation: bool
) -> None:
    """Every combination: a shared address counts unless it is the platform's own
    (loopback, or a proxy it is told of, here "pr"); a shared installation weighs fully
    only when the server also saw both from one address, and little on its own claim."""
    platform = {"pr"}
    projection = rebuild(
        [
            SessionSeen("1", "ann", address, "i-1"),
            SessionSeen(
                "2",
                "bob",
                address if same_address else "10.0.0.2",
                "i-1" if same_installation else "i-2",
            ),
        ]
    )
    found = {s.kind: s.score for p in ranked(projection, platform) for s in p.signals}
    observed = same_address and not is_platform_address(address, platform)
    expected: dict[str, float] = {}
    if observed:
        expected["same_address"] = SAME_ADDRESS
    if same_installation:
        expected["same_installation"] = SAME_INSTALLATION if observed else CLAIMED_INSTALLATION
    assert found == expected
    assert CLAIMED_INSTALLATION < SAME_ADDRESS < SAME_INSTALLATION


def test_ranking_report() -> None:
    signals = ranked(rebuild(world(1, pair_shares_installation=False)))
    print("\ncollusion ranking (seed 1, pair on separate installations):")
    for place, pair in enumerate(signals, 1):
        print(f"{place}. {pair.players} score {pair.score:.2f}")
        for s in pair.signals:
            print(f"     {s.kind} {s.score:.2f}: {s.summary}")
    assert signals[0].players == PAIR


def _quick_tables(
    count: int, *, one_way: bool, mode: str = "versus_friends", seconds: float = 20.0
) -> list[TableResult]:
    """``count`` friends tables between ann and bob on one day; bob wins each (one way) or
    every other one."""
    return [
        TableResult(
            f"f{i}",
            f"t{i}",
            "briscola",
            2,
            {"ann": 2, "bob": 1} if one_way or i % 2 else {"ann": 1, "bob": 2},
            0,
            mode,
            seconds,
            "2026-12-05",
        )
        for i in range(count)
    ]


@pytest.mark.parametrize("count", range(0, 25))
@pytest.mark.parametrize("one_way", [True, False])
def test_pcg_3_reward_farming_is_raised_for_short_one_way_tables_past_the_cap(
    count: int, one_way: bool
) -> None:
    """Short rewarded tables between the same two, the reward flowing one way: raised once
    they pass the daily cap or a coin toss could not explain them, with the cap shown."""
    found = [s for p in ranked(rebuild(_quick_tables(count, one_way=one_way))) for s in p.signals]
    farming = [s for s in found if s.kind == "reward_farming"]
    z = (count - count / 2) / (count / 4) ** 0.5 if count else 0.0
    expected = one_way and count >= FARMING_MIN_TABLES and (count > FARMING_CAP_PER_DAY or z >= 3.0)
    assert bool(farming) == expected
    if farming:
        assert f"bob won {count} of {count}" in farming[0].summary
        assert f"cap {FARMING_CAP_PER_DAY} a day: {count - FARMING_CAP_PER_DAY} over" in (
            farming[0].summary
        )


@pytest.mark.parametrize(("mode", "seconds"), [("stake", 20.0), ("versus_friends", 600.0)])
def test_long_or_unrewarded_tables_are_no_farming(mode: str, seconds: float) -> None:
    tables = _quick_tables(19, one_way=True, mode=mode, seconds=seconds)
    assert all(s.kind != "reward_farming" for p in ranked(rebuild(tables)) for s in p.signals)
