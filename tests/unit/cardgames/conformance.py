"""What every rules engine must honour, checked on random games (STYLE habit 6).

:func:`play_random_game` drives a game with bots or uniformly random choices, fires timers,
tries hand reorders, and after every action checks:

- cards are conserved (the multiset of ``cards_in_play`` never changes);
- every action ``legal_actions`` offers is accepted (all of them when ``deep``);
- illegal actions (mutated legal ones, other seats acting, stale timers, other kinds) are
  refused with :class:`RuleError`, leaving the state exactly as it was;
- ``apply`` never changes the state it is given;
- no view shows a card it should not: the hand is the seat's own cards, and no other
  field names a card that is hidden from that seat unless a copy of it is on view (or,
  once, in the public record of a finished deal: ``public_record``);
- events and views are JSON-safe, events carry a ``"type"``;
- the game ends within ``max_actions`` and its places are a competition ranking.

:func:`replay` re-runs the recorded actions from the seed; the same events and final
state must come out.
"""

from __future__ import annotations

import json
import pickle
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, islice, product
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import SeatedBot
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.contract import Event, Game, Outcome
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.knockout import KnockOut
from tavolo.cardgames.rng import SeededRandom

EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "pika": [
        {"match_length": "hands:2"},
        {"match_length": "points:150"},
        {"pika_window": 1},
    ],
    "spades": [{"target": 100}, {"target": 100, "blind_nil": True}],
    "scopa": [{"match_length": "hands:1"}, {"match_length": "hands:2", "napola": True}],
    "scopone": [{"match_length": "hands:1"}, {"match_length": "hands:1", "deal": "10+0"}],
    "asso": [{"match_length": "hands:1"}, {"match_length": "hands:1", "ace_sweep_scopa": True}],
    "cirulla": [{"match_length": "hands:1"}, {"match_length": "hands:2"}],
    "burraco": [{"match_length": "hands:2"}, {"match_length": "points:500"}],
    "scala40": [{"match_length": "hands:3"}],
    "hearts": [{"target": 30}, {"rules": "standard", "target": 30}],
    "settemezzo": [{"hands": 2}, {"fixed_bet": 5}, {"min_bet": 5, "max_bet": 40}],
    "uno": [{"match_length": "single"}, {"match_length": "hands:2"}, {"uno_window": 1}],
    "poker": [{"starting_stack": 10, "ante": 2}, {"hands": 3, "min_bet": 1}],
}
"""Option sets worth playing beyond the defaults and each option's listed choices."""

EXTRA_VALUES: dict[str, dict[str, list[Any]]] = {
    "bestia": {"ante": [6], "hands": [2], "starting_stack": [20]},
    "spades": {"boston_bonus": [200], "lose_at": [-200]},
    "solitario": {"time_limit": [1]},
    "pika": {"pika_window": [1.5]},
    "poker": {"starting_stack": [10]},
    "settemezzo": {"starting_stack": [10]},
}
"""Values of options without listed choices that the pairwise rows also draw."""

MAX_ACTIONS = 5000
MAX_ACTIONS_OF = {"uno": 40_000}
"""Longer limits: a uniformly random Uno seat draws by choice (UNO-3) about one turn in
three, so a random match to 500 points can run to some ten thousand actions."""
DEEP_STEPS = 300
"""Deep checks cover a game's first steps; long matches finish with the per-action ones."""
TAKEOVER_EVERY = 12
"""A fresh bot of each level takes a seat over at one probed step in this many."""
NOT_LISTED = frozenset({ActionKind.REORDER, ActionKind.EXPIRE})
"""Kinds that legal_actions cannot list: reorders (any permutation) and timer expiries."""


def option_sets(game: Game[Any]) -> list[dict[str, Any]]:
    """Defaults, each listed choice of each option (but ``players``), and EXTRA_OPTIONS."""
    sets: list[dict[str, Any]] = [{}]
    for spec in game.option_specs:
        if spec.name != "players" and spec.choices:
            sets.extend({spec.name: choice} for choice in spec.choices)
    sets.extend(EXTRA_OPTIONS.get(game.name, []))
    return sets


def option_domains(game: Game[Any]) -> dict[str, list[Any]]:
    """The values the suite draws for each option but ``players`` (the seat count sets
    it): every listed choice, else the default and the values EXTRA_OPTIONS names."""
    domains: dict[str, list[Any]] = {}
    for spec in game.option_specs:
        if spec.name == "players":
            continue
        if spec.choices:
            domains[spec.name] = list(spec.choices)
            continue
        values = [spec.default, *EXTRA_VALUES.get(game.name, {}).get(spec.name, [])]
        for extra in EXTRA_OPTIONS.get(game.name, []):
            if spec.name in extra and extra[spec.name] not in values:
                values.append(extra[spec.name])
        domains[spec.name] = values
    return domains


def pairwise_rows(game: Game[Any], seats: int) -> list[dict[str, Any]]:
    """Option sets in which every pair of two options' values occurs at least once
    (every value, when a game has one option), among the sets the game accepts at
    ``seats`` seats: a greedy covering array over the options' whole product."""
    domains = option_domains(game)
    names = sorted(domains)
    rows: list[dict[str, Any]] = []
    for values in product(*(domains[n] for n in names)):
        row = dict(zip(names, values, strict=True))
        if any(spec.name == "players" for spec in game.option_specs):
            row["players"] = seats
        try:
            game.new_game(row, seats, b"pairwise")
        except InvalidOptions:
            continue
        rows.append(row)

    def pairs(row: dict[str, Any]) -> set[tuple[Any, ...]]:
        if len(names) == 1:
            return {(names[0], repr(row[names[0]]))}
        return {(a, repr(row[a]), b, repr(row[b])) for a, b in combinations(names, 2)}

    uncovered = set().union(*(pairs(r) for r in rows)) if rows else set()
    chosen: list[dict[str, Any]] = []
    while uncovered:
        best = max(rows, key=lambda r: len(pairs(r) & uncovered))
        chosen.append(best)
        uncovered -= pairs(best)
    return chosen or [{}]


def wrong_values(game: Game[Any]) -> list[tuple[str, Any]]:
    """For each option, values a client might send that are not among its values: another
    type (``1`` or ``1.0`` or ``"true"`` for a boolean, ``true`` or ``"3"`` for a number,
    ``true`` or a list for a word) and a non-canonical spelling (``"hands:07"``)."""
    out: list[tuple[str, Any]] = []
    for spec in game.option_specs:
        default = spec.default
        if isinstance(default, bool):
            out += [(spec.name, v) for v in (int(default), float(default), str(default).lower())]
        elif isinstance(default, int):
            out += [(spec.name, v) for v in (True, str(default), [default])]
        else:
            out += [(spec.name, v) for v in (True, None, [default], {"value": default})]
        for value in [default, *(spec.choices or ())]:
            if isinstance(value, str) and ":" in value:
                kind, _, number = value.partition(":")
                out += [(spec.name, f"{kind}:0{number}"), (spec.name, f"{kind}: {number}")]
            if isinstance(value, str) and value.lower() != value.upper():
                out.append((spec.name, value.upper()))
    return out


def snapshot(state: object) -> bytes:
    """The state's exact content, to show it did not change."""
    return pickle.dumps(state)


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def check_views(
    game: Game[Any], state: Any, seats: Sequence[int | None] | None = None
) -> dict[int, tuple[str, ...]]:
    """Secrecy: each seat's hand is its own cards and nothing else names a hidden card.
    Checks ``seats`` (default: every seat and a spectator); returns their hands."""
    in_play = Counter(game.cards_in_play(state))
    codes = frozenset(in_play)
    all_hidden = game.hidden_cards(state, None)
    on_view = in_play - Counter(all_hidden)  # face up for everyone
    all_hidden.sort()
    record = Counter(game.public_record(state))  # shown once a deal was over (a showdown)
    assert not record - in_play, "the record names cards that are not in the game"
    scanned: list[tuple[Any, Counter[str]]] = []  # views often share their public part
    hands: dict[int, tuple[str, ...]] = {}
    for seat in [None, *range(game.seats(state))] if seats is None else seats:
        view = game.view(state, seat)
        assert view.seat == seat
        hidden = game.hidden_cards(state, seat)
        shown = game.shown_cards(state, seat) if seat is not None else []
        # The seat's own cards are exactly those hidden from everyone but not from it,
        # apart from any the rules show it alone, and held cards shown to the whole table
        # (Tresette's two-player draws), which must then be named on the table.
        held = Counter(view.hand)
        private = held & Counter(all_hidden)
        on_table = list((held - private).elements())  # held, yet hidden from nobody
        if on_table:
            table = json.dumps(game.view(state, None).public)
            named_on_table = set(_JSON_STRING.findall(table))
            assert all(c in named_on_table for c in on_table), (
                f"seat {seat} holds unshown {on_table}"
            )
        assert sorted([*private.elements(), *hidden, *shown]) == all_hidden, (
            f"seat {seat}'s hand is not its own"
        )
        own = set(view.hand) | set(shown)
        if seat is not None:
            hands[seat] = tuple(view.hand)
        for part, shown_before in ((view.public, record), (view.private, Counter())):
            named = next((found for seen, found in scanned if seen == part), None)
            if named is None:
                text = json.dumps(part)
                named = Counter(c for c in _JSON_STRING.findall(text) if c in codes)
                scanned.append((part, named))
            # Each record card may be named once in the public part, as the record.
            for code in named - shown_before:
                assert code in on_view or code in own, (
                    f"the view of seat {seat} names {code}, which it cannot see"
                )
    return hands


def check_outcome(outcome: Outcome, seats: int) -> None:
    """Places are 1-based competition ranking (1, 2, 2, 4), one per seat."""
    places = outcome.places
    assert len(places) == seats and len(outcome.scores) == seats
    for place in places:
        assert place == 1 + sum(1 for other in places if other < place), places
    json.dumps({"places": list(places), "scores": list(outcome.scores), **outcome.detail})


def check_events(events: Sequence[Event]) -> None:
    json.dumps(events)
    for event in events:
        assert isinstance(event.get("type"), str), event


def apply_checked(
    game: Game[Any], state: Any, seat: int, action: Action, deck: Counter[str], before: bytes
) -> tuple[Any, list[Event]]:
    """Apply an action that must be accepted; the input (whose ``snapshot`` is ``before``)
    must not change, and neither may the cards."""
    new, events = game.apply(state, seat, action)
    assert snapshot(state) == before, f"apply changed its input state ({action})"
    assert Counter(game.cards_in_play(new)) == deck, f"cards not conserved after {action}"
    check_events(events)
    return new, events


def assert_refused(game: Game[Any], state: Any, seat: int, action: Action, before: bytes) -> None:
    """``action`` must be refused with a reason, the state left as ``before``."""
    try:
        game.apply(state, seat, action)
    except RuleError as exc:
        assert str(exc), "a refusal must say why"
    else:
        raise AssertionError(f"seat {seat} was allowed {action}, which is not legal")
    assert snapshot(state) == before, f"a refused {action} changed the state"


def mutations(
    legal: Mapping[int, Sequence[Action]],
    hands: Mapping[int, Sequence[str]],
    codes: Sequence[str],
    rng: SeededRandom,
) -> Iterator[tuple[int, Action]]:
    """Endless random actions close to legal ones: one of the seat's other cards, any
    card, other colours, calls and fields, another seat acting, another kind."""
    seats = len(legal)
    offered = [(seat, a) for seat, actions in legal.items() for a in actions]
    kinds = list(ActionKind)
    listed = [kind for kind in kinds if kind not in NOT_LISTED]
    while True:
        pick = rng.randbelow(11)
        if pick == 0 or not offered:
            yield rng.randbelow(seats), Action(listed[rng.randbelow(len(listed))])
            continue
        seat, action = offered[rng.randbelow(len(offered))]
        card = codes[rng.randbelow(len(codes))]
        hand = hands.get(seat, ())
        if pick == 1:
            # Another seat acting; at a one-seat table, a seat that is not there.
            other = seats if seats == 1 else (seat + 1 + rng.randbelow(seats - 1)) % seats
            yield other, action
        elif pick in (2, 3) and hand:
            yield seat, replace(action, cards=(hand[rng.randbelow(len(hand))],))
        elif pick == 4:
            yield seat, replace(action, cards=(card,))
        elif pick == 5:
            yield seat, replace(action, cards=(*action.cards, card))
        elif pick == 6:
            yield seat, replace(action, cards=())
        elif pick == 7:
            yield seat, replace(action, colour=("red", "blue", "purple", None)[rng.randbelow(4)])
        elif pick == 8:
            yield seat, replace(action, call=("pika", "uno", None)[rng.randbelow(3)])
        elif pick == 9:
            yield seat, replace(action, amount=rng.randbelow(15) - 1, capture=(card,))
        else:
            yield seat, replace(action, kind=kinds[rng.randbelow(len(kinds))])


def check_replay(game: Game[Any], record: Record) -> None:
    """Replaying the record's moves from its seed gives the same events and final state."""
    try:
        events, final = replay(game, record)
    except RuleError as exc:
        raise AssertionError(f"replay refused a recorded move: {exc}") from exc
    assert events == record.events, "replay gave different events"
    assert snapshot(final) == snapshot(record.final), "replay gave a different final state"


@dataclass
class Record:
    """A played game: enough to replay it and to report on it."""

    seats: int
    options: dict[str, Any]
    seed: bytes
    moves: list[tuple[int, Action]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    final: Any = None


def play_random_game(
    game: Game[Any],
    seats: int,
    options: Mapping[str, Any],
    seed: bytes,
    chooser_seed: bytes,
    levels: Sequence[str | None],
    *,
    deep: bool,
    max_actions: int | None = None,
    deep_steps: int = DEEP_STEPS,
    probe_every: int = 1,
    stop_after: int | None = None,
    tally: Tally | None = None,
    takeover_every: int = TAKEOVER_EVERY,
) -> Record:
    """Play one game to its end, checking the contract after every action.

    ``levels[s]`` is seat s's bot level, or ``None`` for uniformly random choices. With
    ``deep``, for the first ``deep_steps`` steps every view is checked, every legal action
    of every seat is applied and more illegal variants are tried. Views and refusals are
    probed at one step in ``probe_every`` (at random); conservation, acceptance of the
    chosen action, an untouched input state, events and the end are checked at every step.
    At every step each seat waited for has a legal action and no seat's list names an
    action twice; at each probe every running timer's expiry is accepted and moves the
    game on, and at one probe in ``takeover_every`` (at random) a seat waited for is
    handed to a freshly made bot of each level, which must choose one of its legal
    actions (GAMES.md 6). With ``stop_after`` the game is
    left after that many actions instead of played to its end; ``tally`` counts the
    positions checked.
    """
    assert len(levels) == seats, "one level (or None) per seat"
    if max_actions is None:
        max_actions = MAX_ACTIONS_OF.get(game.name, MAX_ACTIONS)
    rng = SeededRandom(chooser_seed)
    state = game.new_game(options, seats, seed)
    deck = Counter(game.cards_in_play(state))
    codes = sorted(deck)
    bots: list[SeatedBot | None] = [
        make_bot(game.name, level, chooser_seed + bytes([s])) if level else None
        for s, level in enumerate(levels)
    ]
    record = Record(seats, dict(options), seed)
    veterans = [make_bot(game.name, level, chooser_seed + b"v") for level in bot_levels(game.name)]
    old_timers: set[str] = set()
    for step in range(max_actions):
        if game.outcome(state) is not None:
            break
        if stop_after is not None and step >= stop_after:
            record.final = state
            return record
        thorough = deep and step < deep_steps
        probe = thorough or probe_every == 1 or rng.randbelow(probe_every) == 0
        legal = {s: game.legal_actions(state, s) for s in range(seats)}
        to_act = game.to_act(state)
        before = snapshot(state)
        assert to_act, "an unfinished game must wait for someone"
        for s in to_act:
            assert legal[s], f"seat {s} must act but has no legal action"
        for s, actions in legal.items():
            assert len(set(actions)) == len(actions), f"seat {s}'s legal actions repeat one: " + (
                ", ".join(str(a) for a, n in Counter(actions).items() if n > 1)
            )
            if probe:
                for action in actions:
                    assert game.listed_form(state, s, action) == action, f"{action} listed twice"
        if tally is not None:
            tally.positions += 1
        timers = game.timers(state)
        keys = {t.key for t in timers}
        assert len(keys) == len(timers), "timer keys must be unique"
        assert all(0 <= t.seat < seats for t in timers)
        stale_keys, old_timers = sorted(old_timers - keys), keys
        if probe:
            # Deep: every view. Otherwise the seats to act and one other.
            looked = None if thorough else [None, *sorted(to_act), rng.randbelow(seats)]
            hands = check_views(game, state, looked)
            for key in stale_keys:
                stale = Action(ActionKind.EXPIRE, timer=key)
                assert_refused(game, state, rng.randbelow(seats), stale, before)
            budget = 40 if thorough else 5
            for seat, action in islice(mutations(legal, hands, codes, rng), 3 * budget):
                offered = legal.get(seat, ())
                if action in offered or action.kind in NOT_LISTED:
                    continue
                if 0 <= seat < seats and game.listed_form(state, seat, action) in offered:
                    continue  # another spelling of a listed play, which the game names
                assert_refused(game, state, seat, action, before)
                budget -= 1
                if budget <= 0:
                    break
        if probe:
            for timer in timers:
                expire = Action(ActionKind.EXPIRE, timer=timer.key)
                after, produced = apply_checked(game, state, timer.seat, expire, deck, before)
                assert produced and snapshot(after) != before, f"{timer} expired to no effect"
                if game.outcome(after) is None:
                    assert game.to_act(after), f"nobody to act after {timer} expired"
            if to_act and rng.randbelow(takeover_every) == 0:
                taken = sorted(to_act)[rng.randbelow(len(to_act))]
                check_takeover(game, state, taken, legal[taken], rng, tally, veterans)
        if thorough:
            for s, actions in legal.items():
                for action in actions:
                    apply_checked(game, state, s, action, deck, before)
        seat, action = _next_move(game, state, legal, to_act, timers, bots, rng)
        if action.kind is ActionKind.REORDER:
            try:
                game.apply(state, seat, action)
            except RuleError:
                assert_refused(game, state, seat, action, before)  # games without reordering
                continue
        state, events = apply_checked(game, state, seat, action, deck, before)
        if action.kind is ActionKind.REORDER:
            assert game.view(state, seat).hand == action.cards, "a reorder must be kept"
        record.moves.append((seat, action))
        record.events.extend(events)
    outcome = game.outcome(state)
    assert outcome is not None, f"no end after {max_actions} actions"
    check_outcome(outcome, seats)
    check_views(game, state)
    assert all(game.legal_actions(state, s) == [] for s in range(seats))
    assert game.to_act(state) == frozenset() and game.timers(state) == ()
    record.final = state
    return record


@dataclass
class Tally:
    """What the checks covered: positions checked, bot takeovers made."""

    positions: int = 0
    takeovers: int = 0


def check_takeover(
    game: Game[Any],
    state: Any,
    seat: int,
    legal: Sequence[Action],
    rng: SeededRandom,
    tally: Tally | None = None,
    veterans: Sequence[SeatedBot] = (),
) -> None:
    """A freshly made bot of each level, which has seen nothing of this game, takes
    ``seat`` over (a player leaving mid-game) and must choose one of its legal actions;
    so must each of ``veterans``, bots asked at every probe whatever the seat, so that
    the positions they see are never the ones their own choices led to (a stale plan)."""
    view = game.view(state, seat)
    for level in bot_levels(game.name):
        bot = make_bot(game.name, level, bytes([rng.randbelow(256) for _ in range(8)]))
        choice = bot.choose(view, legal)
        assert choice in legal, f"a fresh {level} bot chose {choice}, which is not legal"
        if tally is not None:
            tally.takeovers += 1
    for bot in veterans:
        choice = bot.choose(view, legal)
        assert choice in legal, f"a {bot.level} bot asked again chose {choice}, not legal"


def _next_move(
    game: Game[Any],
    state: Any,
    legal: Mapping[int, Sequence[Action]],
    to_act: frozenset[int],
    timers: Sequence[Any],
    bots: Sequence[SeatedBot | None],
    rng: SeededRandom,
) -> tuple[int, Action]:
    roll = rng.randbelow(100)
    if roll < 4 and timers:
        timer = timers[rng.randbelow(len(timers))]
        return timer.seat, Action(ActionKind.EXPIRE, timer=timer.key)
    if roll < 7:
        seat = rng.randbelow(len(bots))
        hand = list(game.view(state, seat).hand)
        rng.shuffle(hand)
        return seat, Action(ActionKind.REORDER, cards=tuple(hand))
    others = sorted(s for s in legal if legal[s] and s not in to_act)
    if others and roll < 20:
        seat = others[rng.randbelow(len(others))]
    else:
        ordered = sorted(to_act)
        seat = ordered[rng.randbelow(len(ordered))]
    bot = bots[seat]
    if bot is None:
        return seat, legal[seat][rng.randbelow(len(legal[seat]))]
    choice = bot.choose(game.view(state, seat), legal[seat])
    assert choice in legal[seat], f"a {bot.level} bot chose {choice}, which is not legal"
    return seat, choice


def replay(game: Game[Any], record: Record) -> tuple[list[Event], Any]:
    """Re-run a record's moves from its seed: the events and final state it gives."""
    state = game.new_game(record.options, record.seats, record.seed)
    events: list[Event] = []
    for seat, action in record.moves:
        state, produced = game.apply(state, seat, action)
        events.extend(produced)
    return events, state


def levels_for(game: Game[Any], rng: SeededRandom, seats: int) -> list[str | None]:
    """A random bot level (or none, for uniform choices) per seat."""
    offered: list[str | None] = [None, *bot_levels(game.name)]
    return [offered[rng.randbelow(len(offered))] for _ in range(seats)]


# -- ties forced at the end of a match (RULES §0.12-14, PCG-7) ----------------------------

SHORT_MATCH: dict[str, dict[str, Any]] = {
    "pika": {"match_length": "single"},
    "uno": {"match_length": "single"},
    "hearts": {"target": 30},
    "bestia": {"hands": 1},
    "ciapano": {"match_length": "hands:3"},
    "scala40": {"match_length": "hands:1"},
    "poker": {"hands": 1},
    "settemezzo": {"hands": 1},
}
"""The shortest match each knock-out game offers: the tie is forced at its end."""


@dataclass(frozen=True)
class Forced:
    inner: Any
    hand: int  # 0: the match; n: the n-th tie-break hand


class ForcedTie(Game[Forced]):
    """``game`` with its match ending with ``tied`` sharing first place (the others
    after them in the match's own order); its tie-break hands are the game's own, and
    ``hand_places`` keeps each one's places as the game gave them."""

    min_players = 2
    max_players = 10
    offers_knock_out = True

    def __init__(self, game: Game[Any], tied: Sequence[int]) -> None:
        self.game, self.tied = game, tuple(tied)
        self.name, self.title = game.name, game.title
        self.option_specs = game.option_specs
        self.hand_places: dict[int, tuple[int, ...]] = {}

    def options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self.game.options(given)

    def new_game(self, options: Mapping[str, Any] | None, seats: int, seed: bytes) -> Forced:
        return Forced(self.game.new_game(options, seats, seed), 0)

    def _new_game(self, options: dict[str, Any], seats: int, rng: SeededRandom) -> Forced:
        raise NotImplementedError

    def _legal_actions(self, state: Forced, seat: int) -> list[Action]:
        return self.game.legal_actions(state.inner, seat)

    def apply(self, state: Forced, seat: int, action: Action) -> tuple[Forced, list[Event]]:
        inner, events = self.game.apply(state.inner, seat, action)
        return Forced(inner, state.hand), events

    def _apply(self, state: Forced, seat: int, action: Action) -> tuple[Forced, list[Event]]:
        return self.apply(state, seat, action)

    def outcome(self, state: Forced) -> Outcome | None:
        found = self.game.outcome(state.inner)
        if found is None:
            return None
        if state.hand:
            self.hand_places[state.hand] = found.places
            return found
        rest = [s for s in range(len(found.places)) if s not in self.tied]
        places = [1] * len(found.places)
        for s in rest:
            places[s] = (
                1 + len(self.tied) + sum(1 for t in rest if found.places[t] < found.places[s])
            )
        return replace(found, places=tuple(places))

    def tie_break_hand(self, state: Forced) -> tuple[Forced, list[Event]]:
        inner = state.inner
        if state.hand == 0 and self.game.name in _LEVEL_AT_TOP:
            inner = _LEVEL_AT_TOP[self.game.name](inner, self.tied)
        inner, events = self.game.tie_break_hand(inner)
        return Forced(inner, state.hand + 1), events

    def last_capture(self, state: Forced) -> int | None:
        return self.game.last_capture(state.inner)

    def partners(self, state: Forced, seat: int) -> frozenset[int]:
        return self.game.partners(state.inner, seat)

    def listed_form(self, state: Forced, seat: int, action: Action) -> Action:
        return self.game.listed_form(state.inner, seat, action)

    def view(self, state: Forced, seat: int | None) -> Any:
        return self.game.view(state.inner, seat)

    def to_act(self, state: Forced) -> frozenset[int]:
        return self.game.to_act(state.inner)

    def seats(self, state: Forced) -> int:
        return self.game.seats(state.inner)

    def timers(self, state: Forced) -> tuple[Any, ...]:
        return self.game.timers(state.inner)

    def cards_in_play(self, state: Forced) -> list[str]:
        return self.game.cards_in_play(state.inner)

    def hidden_cards(self, state: Forced, seat: int | None) -> list[str]:
        return self.game.hidden_cards(state.inner, seat)

    def shown_cards(self, state: Forced, seat: int) -> list[str]:
        return self.game.shown_cards(state.inner, seat)

    def public_record(self, state: Forced) -> list[str]:
        return self.game.public_record(state.inner)


def _chips_level(state: Any, tied: Sequence[int]) -> Any:
    """A chip game's end with the ``tied`` seats level on more chips than anyone else."""
    top = max(state.chips) + 1
    chips = tuple(top if s in tied else c for s, c in enumerate(state.chips))
    if hasattr(state, "in_match"):
        in_match = tuple(s in tied or m for s, m in enumerate(state.in_match))
        return replace(state, chips=chips, in_match=in_match)
    return replace(state, chips=chips)


def _places_level(state: Any, tied: Sequence[int]) -> Any:
    """Scala 40's end with the ``tied`` seats placed first together."""
    rest = [s for s in range(len(state.places)) if s not in tied]
    places = [1 if s in tied else 0 for s in range(len(state.places))]
    for s in rest:
        places[s] = 1 + len(tied) + sum(1 for t in rest if state.places[t] < state.places[s])
    return state.replace(places=tuple(places))


_LEVEL_AT_TOP = {"poker": _chips_level, "settemezzo": _chips_level, "scala40": _places_level}
"""Games whose tie-break hand reads who is tied from their own state: the forced tie is
written there too before it is dealt, so the hand is played by the sides tied."""


def expected_ko_places(
    match: Sequence[int],
    tied: Sequence[int],
    hands: Sequence[Sequence[int]],
    last_capture: int | None,
) -> tuple[tuple[int, ...], int]:
    """RULES §0.12-14 worked out by splitting groups: the tied seats start as one group;
    each tie-break hand splits every group by its places; play stops once the first group
    is one seat, or after 3 hands, when the last capture's seat, if in the first group,
    drops to the end of it. Returns the places and how many hands were needed."""
    groups = [list(tied)]
    used = 0
    for places in hands:
        used += 1
        split: list[list[int]] = []
        for group in groups:
            for place in sorted({places[s] for s in group}):
                split.append([s for s in group if places[s] == place])
        groups = split
        if len(groups[0]) == 1:
            break
    if len(groups[0]) > 1 and last_capture in groups[0]:
        first = groups[0]
        others = [s for s in first if s != last_capture]
        groups = [others, [last_capture], *groups[1:]]
    out = list(match)
    ahead = 0
    for group in groups:
        for s in group:
            out[s] = 1 + ahead
        ahead += len(group)
    return tuple(out), used


def play_forced_tie(game: Game[Any], seats: int, tied: Sequence[int], seed: bytes) -> int:
    """A match of ``game`` ending with ``tied`` level at the top, played on through the
    knock-out's tie-break hands by bots of random levels; its places must be those
    :func:`expected_ko_places` works out. Returns the positions played."""
    forced = ForcedTie(game, tied)
    ko = KnockOut(forced)
    rng = SeededRandom(seed)
    state = ko.new_game(SHORT_MATCH.get(game.name, {}), seats, seed)
    levels = bot_levels(game.name)
    bots = [
        make_bot(game.name, levels[rng.randbelow(len(levels))], seed + bytes([s]))
        for s in range(seats)
    ]
    steps = 0
    while state.outcome is None:
        waiting = sorted(ko.to_act(state))
        assert waiting, "a knock-out match waits for nobody"
        seat = waiting[rng.randbelow(len(waiting))]
        legal = ko.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        state, _ = ko.apply(state, seat, bots[seat].choose(ko.view(state, seat), legal))
        steps += 1
        assert steps < 200_000, "no end"
    outcome = ko.outcome(state)
    assert outcome is not None and state.match is not None
    hands = [forced.hand_places[n] for n in sorted(forced.hand_places)]
    last = forced.last_capture(state.current)
    expected, used = expected_ko_places(state.match.places, tied, hands, last)
    assert len(hands) == used, f"{len(hands)} tie-break hands played where {used} decide"
    assert outcome.places == expected, (outcome.places, expected, hands, last)
    check_outcome(outcome, seats)
    return steps
