"""Seeded Spades and Hearts matches replay to the very same record (AUDIT-1, FAIR-2).

A table's log is replayed from its seed and actions, so the rules must give the same
deals, events, views, legal moves, timers, refusals and outcome for ever; a change made
for speed must change none of them. Matches under a spread of options are played with
random legal moves (now and then a turn timer running out, and near misses refused),
a few by the bots of every level, whose choices are hashed too, and random self-play
through the public loop; everything they produce is hashed. The digests were recorded
from the rules before their hot paths were rewritten for speed.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.contract import JSON
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import play_random
from tests.unit.cardgames.digest import Digest, refused

RECORDED = {
    "spades": "5a58a514a0998056585b1bb2cafa1b50d672198e174ece5edf0d63a98a6b9d13",
    "hearts": "6cf65ff1181bc0bcc8fadf37aea0f29fe462e6645c090f88c3b70ef18a6b97d4",
}

TABLES: dict[str, tuple[dict[str, JSON], ...]] = {
    "spades": (
        {"target": 200},
        {"target": 300, "blind_nil": True},
        {"target": 100, "bag_points": 1, "boston_bonus": 200, "lose_at": -100},
        {"blind_nil": True, "lose_at": -200},
    ),
    "hearts": (
        {"target": 40},
        {"rules": "standard", "target": 60},
        {"rules": "standard", "target": 1},
        {},
    ),
}
MATCHES_PER_TABLE = 3
BOT_LEVELS = (("easy", "medium", "hard", "hard"), ("hard", "easy", "medium", "easy"))
"""The bot matches: one level a seat."""


def _probes(game: Any, state: Any, seat: int, legal: list[Action]) -> list[Action]:
    """Near misses: a card of the seat's hand it may not play, a card it does not hold,
    two cards at once, a bid out of range, the other phase's action, a stale timer."""
    hand = state.hands[seat]
    playable = {a.cards[0] for a in legal if a.cards}
    probes = [Action(ActionKind.PLAY, cards=(c,)) for c in hand if c not in playable][:2]
    other = (seat + 1) % 4
    if state.hands[other]:
        probes.append(Action(ActionKind.PLAY, cards=state.hands[other][-1:]))
        probes.append(Action(ActionKind.PASS_CARDS, cards=state.hands[other][:1]))
    if len(hand) >= 2:
        probes.append(Action(ActionKind.PLAY, cards=hand[:2]))
        probes.append(Action(ActionKind.PASS_CARDS, cards=hand[:1]))
    probes += [
        Action(ActionKind.PLAY, cards=("1X",)),
        Action(ActionKind.BID, amount=14),
        Action(ActionKind.BID, amount=3),
        Action(ActionKind.BLIND_NIL),
        Action(ActionKind.PASS),
        Action(ActionKind.EXPIRE, timer="turn:stale"),
    ]
    return probes


def _add_state(add: Any, game: Any, state: Any) -> None:
    for viewer in (None, 0, 1, 2, 3):
        add(game.view(state, viewer).to_dict())
        add(game.hidden_cards(state, viewer))
    add([[t.key, t.seat, t.kind, t.millis] for t in game.timers(state)])
    add(sorted(game.to_act(state)))
    add(game.cards_in_play(state))
    add(game.last_capture(state))


def _match_record(name: str, options: dict[str, JSON], n: int) -> str:
    game = get_game(name)
    chooser = random.Random(f"{name}-{options}-{n}")
    state = game.new_game(options, 4, f"digest {name} {options} {n}".encode())
    digest = Digest()
    add = digest.add
    _add_state(add, game, state)
    while game.to_act(state):
        seat = chooser.choice(sorted(game.to_act(state)))
        legal = game.legal_actions(state, seat)
        add([seat, [a.to_dict() for a in legal]])
        for probe in _probes(game, state, seat, legal):
            add(refused(game, state, seat, probe))
        for stranger in range(4):
            if stranger not in game.to_act(state):
                add(refused(game, state, stranger, legal[0]))
                add(game.legal_actions(state, stranger) == [])
        if chooser.random() < 0.05:
            timer = next(t for t in game.timers(state) if t.seat == seat)
            action = Action(ActionKind.EXPIRE, timer=timer.key)
        else:
            action = legal[chooser.randrange(len(legal))]
        state, events = game.apply(state, seat, action)
        add(events)
        _add_state(add, game, state)
    outcome = game.outcome(state)
    assert outcome is not None
    add([list(outcome.places), list(outcome.scores), dict(outcome.detail)])
    if game.offers_knock_out and not game.own_tie_breaks:
        state, events = game.tie_break_hand(state)
        add(events)
        _add_state(add, game, state)
    return digest.hexdigest()


def _bot_record(name: str, levels: tuple[str, ...], n: int) -> str:
    """A match of bots, one level a seat: their every choice, the events and the views."""
    game = get_game(name)
    bots = [make_bot(name, level, f"{name}-{n}-{seat}") for seat, level in enumerate(levels)]
    state = game.new_game({"target": 150 if name == "spades" else 50}, 4, f"bots {n}".encode())
    digest = Digest()
    while game.to_act(state):
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        digest.add([seat, action.to_dict()])
        state, events = game.apply(state, seat, action)
        digest.add(events)
        digest.add(game.view(state, None).to_dict())
    outcome = game.outcome(state)
    assert outcome is not None
    digest.add([list(outcome.places), list(outcome.scores), dict(outcome.detail)])
    return digest.hexdigest()


def _selfplay_record(name: str) -> str:
    """Random self-play through the public loop: every move and each final state."""
    game = get_game(name)
    chooser = random.Random(f"selfplay {name}")
    digest = Digest()
    for n in range(6):
        moves: list[tuple[int, Action]] = []
        state = game.new_game({}, 4, f"selfplay {name} {n}".encode())
        final, applied = play_random(game, state, chooser, moves)
        digest.add([applied, [[s, a.to_dict()] for s, a in moves]])
        digest.add(game.view(final, None).to_dict())
    return digest.hexdigest()


def tricks_digest(name: str) -> str:
    hasher = hashlib.sha256()
    for options in TABLES[name]:
        for n in range(MATCHES_PER_TABLE):
            hasher.update(_match_record(name, options, n).encode())
    for n, levels in enumerate(BOT_LEVELS):
        hasher.update(_bot_record(name, levels, n).encode())
    hasher.update(_selfplay_record(name).encode())
    return hasher.hexdigest()


def test_seeded_spades_matches_replay_to_the_recorded_digest() -> None:
    """AUDIT-1: every deal, event, view, timer, legal move, refusal and outcome as
    recorded, and the bots' every choice."""
    assert tricks_digest("spades") == RECORDED["spades"]


def test_seeded_hearts_matches_replay_to_the_recorded_digest() -> None:
    """AUDIT-1: the same for Hearts, under the seed's and the standard rules."""
    assert tricks_digest("hearts") == RECORDED["hearts"]


def test_a_trick_state_copies_every_field_in_order() -> None:
    """AUDIT-1: the copy named field by field holds what the generic copy would."""
    from tavolo.cardgames.slotted import SlottedState

    for name in RECORDED:
        state = get_game(name).new_game({}, 4, name.encode())
        assert state.copy().values() == SlottedState.copy(state).values() == state.values()


if __name__ == "__main__":
    for game_name in RECORDED:
        print(game_name, tricks_digest(game_name))
