"""Our Spades and Hearts as OpenSpiel games (``bench/spiel``), which the ISMCTS bench
searches (GAMES 8, SPADES-9): the wrapped game plays exactly our rules, and a resampled
world is one the seat cannot tell from the real one."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from spiel import ours
from spiel.resample import voids

from tavolo.cardgames.games.french_deck import suit_of


@pytest.mark.parametrize("name", ["spades", "hearts"])
@pytest.mark.parametrize("seed", range(3))
def test_every_step_matches_our_rules_and_every_world_is_consistent(name, seed) -> None:
    """At every step of random deals: the legal ids are our engine's legal actions, and
    for every seat a resampled world keeps its information state and hand, every hand's
    size, the cards played, its passed cards where they went, and every void shown."""
    import pyspiel

    game = pyspiel.load_game(f"python_tavolo_{name}", {"seed": f"t{seed}"})
    state = game.new_initial_state()
    rules, rng = state.snap.game.rules, random.Random(seed)
    while not state.is_terminal():
        snap = state.snap
        seat = state.current_player()
        legal = rules.legal_actions(snap.ours, seat)
        assert sorted(ours.to_id(a) for a in legal) == state.legal_actions()
        for seer in range(4):
            world = state.resample_from_infostate(seer, rng)
            hands = world.snap.ours.hands
            assert world.information_state_string(seer) == state.information_state_string(seer)
            assert hands[seer] == snap.ours.hands[seer]
            assert [len(h) for h in hands] == [len(h) for h in snap.ours.hands]
            assert sorted(c for h in hands for c in h) == sorted(
                c for h in snap.ours.hands for c in h
            )
            for other, suits in voids(snap.plays).items():
                if other != seer:
                    assert not [c for c in hands[other] if suit_of(c) in suits]
            if name == "hearts" and snap.ours.phase != "pass" and snap.ours.pass_to:
                receiver = (seer + snap.ours.pass_to) % 4
                played = {c for _, c in snap.plays}
                kept = set(snap.ours.passed[seer]) - played
                assert kept <= set(hands[receiver])
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)


def test_searcher_plays_a_legal_move() -> None:
    """OpenSpiel's ISMCTS (its Python port) searches the wrapped game through our
    resampling and rollouts, and returns one of our legal moves."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_tavolo_spades", {"seed": "search"})
    state = game.new_initial_state()
    draw = random.Random(1)
    bot = ismcts.ISMCTSBot(
        game,
        ours.Rollout(random.Random(2)),
        2.0,
        30,
        random_state=np.random.RandomState(3),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        allow_inconsistent_action_sets=True,
    )
    bot.set_resampler(lambda st, p: st.resample_from_infostate(p, draw))
    for _ in range(8):
        move = int(bot.step(state))
        assert move in state.legal_actions()
        state.apply_action(move)
