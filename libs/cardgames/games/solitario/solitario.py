"""Solitario, Klondike (``seeds/002``; RULES §16, SOLITARIO-1…6): move every card to four
foundations, built up by suit from the ace, through seven columns built down in
alternating colours.

1. *Layout.* Seven columns, column k with k-1 face-down cards under a face-up one, dealt
   row by row; the other 24 cards are the stock (:func:`solitario_piles.deal`).
2. *A playable deal.* A deal with no face-up ace and no face-up card of columns 2-7 that
   fits on another column is shuffled and dealt again, as many times as it takes.
3. *Moves.* ``MOVE(source, target, count)`` between the piles ``waste``, ``t1``…``t7``
   and ``fS``/``fH``/``fD``/``fC`` (:func:`solitario_piles.list_moves`). A face-down card
   left on top of a column is turned up at once.
4. *The stock.* ``DRAW`` turns ``draw`` (1 or 3) cards onto the waste; with the stock
   empty it turns the waste over (a *recycle*), as often as the scoring allows.
5. *Scoring* in :mod:`~tavolo.cardgames.games.solitario.scoring`.
6. *The end.* A seat finishes by winning, by ``STOP``, or when its time runs out. When
   nothing is face down and the stock and waste are empty, the rest goes to the
   foundations by itself (auto-finish) and the seat has won.

Several seats **[decision]** (RULES 16.6) get the same deal and play at once; each sees
its own layout and everyone's score. With two or more seats each has a ``time_limit``
timer (10 minutes). Places follow the scores, equal scores sharing a place.

Timers **[decision]**: a seat's turn timer is an inactivity timer. Its expiry stops that
seat's game with the score it has: any move the clock made for the player (a draw, a
recycle) could only cost points or passes. With ``timed = on`` a ``clock`` timer of 10
seconds costs 2 points at each expiry; a win after more than 30 seconds earns
⌊700000 ÷ seconds⌋.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import (
    JSON,
    Event,
    Game,
    OptionSpec,
    Outcome,
    Timer,
    View,
    places_from_measure,
)
from tavolo.cardgames.errors import GameOver, InvalidOptions, RuleError
from tavolo.cardgames.games.solitario import scoring
from tavolo.cardgames.games.solitario.piles import (
    COLUMN_NAMES,
    FOUNDATION_NAMES,
    MAX_COUNT,
    PILE_INDEX,
    RANK,
    SUIT_INDEX,
    WASTE,
    Layout,
    check_move,
    deal,
    draw,
    has_scoring_move,
    move_cards,
    move_table,
    new_deck,
    put,
    recycle,
    take,
)
from tavolo.cardgames.games.solitario.runs import layout_moves
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

WON, STOPPED, TIMED_OUT, OUT_OF_TIME = "won", "stopped", "timeout", "time_limit"
PILES = frozenset((WASTE, *COLUMN_NAMES, *FOUNDATION_NAMES))

_DRAW = Action(ActionKind.DRAW)
_STOP = Action(ActionKind.STOP)
_MOVES = move_table(
    lambda source, target, count: Action(ActionKind.MOVE, source=source, target=target, count=count)
)
"""Every move's action, built once: building an action costs more than finding the move."""


@dataclass(frozen=True)
class SolitarioOptions:
    draw: int
    scoring: str
    timed: bool
    time_limit: int  # minutes, with two or more seats

    def __reduce__(self) -> tuple[type[SolitarioOptions], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return SolitarioOptions, (self.draw, self.scoring, self.timed, self.time_limit)


_SEAT_FIELDS = ("layout", "score", "recycles", "actions", "seconds", "finished")


class SeatGame(SlottedState):
    """One seat's game: its layout and its running score. Treat it as immutable (a
    slotted class: compiled, a frozen dataclass is built through Python code)."""

    __slots__ = _SEAT_FIELDS
    FIELDS = _SEAT_FIELDS

    def __init__(
        self,
        layout: Layout,
        score: int,
        recycles: int,
        actions: int,  # moves and draws made
        seconds: int,  # timed play: the clock's ticks so far, in seconds
        finished: str | None,
    ) -> None:
        self.layout = layout
        self.score = score
        self.recycles = recycles
        self.actions = actions
        self.seconds = seconds
        self.finished = finished


_STATE_FIELDS = ("options", "redeals", "seats")


class SolitarioState(SlottedState):
    """Every seat's game on the same deal. Treat it as immutable."""

    __slots__ = _STATE_FIELDS
    FIELDS = _STATE_FIELDS

    def __init__(
        self,
        options: SolitarioOptions,
        redeals: int,  # deals refused for having no scoring move
        seats: tuple[SeatGame, ...],
    ) -> None:
        self.options = options
        self.redeals = redeals
        self.seats = seats


def _seat_with(
    g: SeatGame,
    *,
    layout: Layout | None = None,
    score: int | None = None,
    seconds: int | None = None,
    finished: str | None = None,
) -> SeatGame:
    """``g`` with the fields given changed (a game never becomes unfinished), through the
    constructor: ``dataclasses.replace`` goes through its generic keyword path."""
    return SeatGame(
        g.layout if layout is None else layout,
        g.score if score is None else score,
        g.recycles,
        g.actions,
        g.seconds if seconds is None else seconds,
        g.finished if finished is None else finished,
    )


def _minutes(value: JSON) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 120:
        return "must be a whole number of minutes from 1 to 120"
    return None


class Solitario(Game[SolitarioState]):
    """Klondike for one to four seats on the same deal; see the module docstring."""

    name = "solitario"
    title = "Solitario (Klondike)"
    min_players = 1
    max_players = 4
    option_specs = (
        OptionSpec("draw", 1, "cards turned from the stock at a time", (1, 3)),
        OptionSpec(
            "scoring", scoring.STANDARD, "standard or vegas", (scoring.STANDARD, scoring.VEGAS)
        ),
        OptionSpec("timed", False, "standard scoring against the clock", (False, True)),
        OptionSpec("time_limit", 10, "minutes each seat has, with 2 or more seats", check=_minutes),
    )
    offers_knock_out = False
    """Played alone: each seat lays out its own deal, so there is no match between sides to
    break a tie in, and nobody captures (docs/decisions.md)."""

    def _new_game(self, options: dict[str, JSON], seats: int, rng: SeededRandom) -> SolitarioState:
        opts = SolitarioOptions(**options)
        if opts.timed and opts.scoring != scoring.STANDARD:
            raise InvalidOptions(
                "option 'timed' is for standard scoring only, not vegas",
                reason="OPTION_INVALID",
                metadata={"option": "timed"},
            )
        rng = rng.copy()
        redeals = 0
        while True:
            deck = new_deck()
            rng.shuffle(deck)
            layout = deal(deck)
            if has_scoring_move(layout):
                break
            redeals += 1
        start = SeatGame(layout, scoring.starting_score(opts.scoring), 0, 0, 0, None)
        return SolitarioState(options=opts, redeals=redeals, seats=(start,) * seats)

    # -- whose move, and which ------------------------------------------------------

    def seats(self, state: SolitarioState) -> int:
        return len(state.seats)

    def to_act(self, state: SolitarioState) -> frozenset[int]:
        return frozenset(s for s, g in enumerate(state.seats) if g.finished is None)

    def timers(self, state: SolitarioState) -> tuple[Timer, ...]:
        timers: list[Timer] = []
        limit = state.options.time_limit * 60_000 if len(state.seats) > 1 else None
        for s, g in enumerate(state.seats):
            if g.finished is not None:
                continue
            timers.append(Timer(f"turn:s{s}:a{g.actions}", s, "turn"))
            if state.options.timed:
                ticks = g.seconds // scoring.TICK_SECONDS
                timers.append(Timer(f"clock:s{s}:{ticks}", s, "clock", scoring.TICK_SECONDS * 1000))
            if limit is not None:
                timers.append(Timer(f"limit:s{s}", s, "time_limit", limit))
        return tuple(timers)

    def _legal_actions(self, state: SolitarioState, seat: int) -> list[Action]:
        g = state.seats[seat]
        if g.finished is not None:
            return []
        actions = layout_moves(g.layout, _MOVES)
        if self._may_draw(state, g):
            actions.append(_DRAW)
        actions.append(_STOP)
        return actions

    def _is_legal(self, state: SolitarioState, seat: int, action: Action) -> bool:
        g = state.seats[seat]
        if g.finished is not None:
            return False
        kind = action.kind
        if kind is ActionKind.MOVE:
            source, target, count = action.source, action.target, action.count
            if source is None or target is None or count is None:
                return False
            src, dst = PILE_INDEX.get(source), PILE_INDEX.get(target)
            if src is None or dst is None or not 1 <= count <= MAX_COUNT:
                return False  # no such pile, or no such run: never a move
            listed = _MOVES[src][dst][count]
            layout = g.layout
            return (action is listed or action == listed) and check_move(
                layout.up, layout.waste, layout.foundations, src, dst, count
            )
        if kind is ActionKind.DRAW:
            return (action is _DRAW or action == _DRAW) and self._may_draw(state, g)
        return action is _STOP or action == _STOP

    def _may_draw(self, state: SolitarioState, g: SeatGame) -> bool:
        if g.layout.stock:
            return True
        return bool(g.layout.waste) and self.recycles_left(state, g) != 0

    def recycles_left(self, state: SolitarioState, g: SeatGame) -> int | None:
        """How many more times the waste may be turned over (``None``: no limit)."""
        passes = scoring.passes_allowed(state.options.scoring, state.options.draw)
        return None if passes is None else passes - 1 - g.recycles

    def _explain(self, state: SolitarioState, seat: int, action: Action) -> RuleError:
        g = state.seats[seat]
        if g.finished is not None:
            return GameOver(f"your game is over ({g.finished})")
        kind = action.kind
        if kind is ActionKind.DRAW:
            if action != _DRAW:
                return RuleError(
                    "draw takes no cards or piles: it turns the stock", reason="ACTION_NOT_ALLOWED"
                )
            if g.layout.waste:
                return RuleError(
                    "the stock is empty and the waste may not be turned over again",
                    reason="STOCK_EMPTY",
                )
            return RuleError("the stock and the waste are both empty", reason="STOCK_EMPTY")
        if kind is ActionKind.STOP:
            return RuleError("stop takes no cards or piles", reason="ACTION_NOT_ALLOWED")
        if kind is not ActionKind.MOVE:
            return RuleError(
                "in Solitario you move cards (move), turn the stock (draw) or stop",
                reason="ACTION_NOT_ALLOWED",
            )
        if action.cards or action.capture or action.amount is not None:
            return RuleError(
                "a move names its source, target and count, not cards", reason="ACTION_NOT_ALLOWED"
            )
        if action.source not in PILES or action.target not in PILES:
            piles = ", ".join(sorted(PILES))
            return RuleError(f"a move goes between two piles of: {piles}", reason="RULE_VIOLATION")
        return RuleError(
            f"{action.count or 0} card(s) from {action.source} cannot go to {action.target} "
            "(foundations build up by suit from the ace, columns down in alternating colours, "
            "only a king fills an empty column)",
            reason="RULE_VIOLATION",
        )

    # -- applying an action ---------------------------------------------------------

    def _apply(
        self, state: SolitarioState, seat: int, action: Action
    ) -> tuple[SolitarioState, list[Event]]:
        g = state.seats[seat]
        kind = action.kind
        if kind is ActionKind.EXPIRE:
            return self._expire(state, seat, str(action.timer))
        if kind is ActionKind.STOP:
            return self._finish(state, seat, _seat_with(g, finished=STOPPED), [])
        if kind is ActionKind.DRAW:
            return self._draw(state, seat, g)
        return self._move(state, seat, g, str(action.source), str(action.target), action.count)

    def _expire(
        self, state: SolitarioState, seat: int, key: str
    ) -> tuple[SolitarioState, list[Event]]:
        g = state.seats[seat]
        expired: Event = {"type": "timer_expired", "seat": seat, "timer": key}
        if key.startswith("clock:"):
            score = scoring.add(state.options.scoring, g.score, scoring.TICK_PENALTY)
            g = _seat_with(g, seconds=g.seconds + scoring.TICK_SECONDS, score=score)
            expired["score"] = score
            return self._with(state, seat, g), [expired]
        reason = OUT_OF_TIME if key.startswith("limit:") else TIMED_OUT
        return self._finish(state, seat, _seat_with(g, finished=reason), [expired])

    def _draw(
        self, state: SolitarioState, seat: int, g: SeatGame
    ) -> tuple[SolitarioState, list[Event]]:
        opts = state.options
        if g.layout.stock:
            layout, drawn = draw(g.layout, opts.draw)
            g = SeatGame(layout, g.score, g.recycles, g.actions + 1, g.seconds, g.finished)
            return self._with(state, seat, g), [
                {"type": "drew", "seat": seat, "cards": list(drawn)}
            ]
        points = scoring.recycle_points(opts.scoring, opts.draw, g.recycles)
        score = scoring.add(opts.scoring, g.score, points)
        g = SeatGame(recycle(g.layout), score, g.recycles + 1, g.actions + 1, g.seconds, g.finished)
        event: Event = {"type": "recycled", "seat": seat, "points": points, "score": score}
        return self._with(state, seat, g), [event]

    def _move(
        self,
        state: SolitarioState,
        seat: int,
        g: SeatGame,
        source: str,
        target: str,
        count: int | None,
    ) -> tuple[SolitarioState, list[Event]]:
        layout, cards, turned = move_cards(g.layout, source, target, int(count or 1))
        points = scoring.move_points(state.options.scoring, source, target, len(turned))
        score = scoring.add(state.options.scoring, g.score, points)
        g = SeatGame(layout, score, g.recycles, g.actions + 1, g.seconds, g.finished)
        events: list[Event] = [
            {
                "type": "moved",
                "seat": seat,
                "source": source,
                "target": target,
                "cards": list(cards),
                "turned_up": [c for _, c in turned],
                "score": score,
            }
        ]
        if layout.all_face_up() and not layout.won():
            g = self._auto_finish(state, g, seat, events)
        if g.layout.won():
            return self._finish(state, seat, g, events)
        return self._with(state, seat, g), events

    def _auto_finish(
        self, state: SolitarioState, g: SeatGame, seat: int, events: list[Event]
    ) -> SeatGame:
        """Everything is face up: play the columns out to the foundations, lowest first."""
        layout, score, played = g.layout, g.score, []
        while not layout.won():
            k = min(
                (k for k, col in enumerate(layout.up) if col),
                key=lambda k: RANK[layout.up[k][-1]],
            )
            card = layout.up[k][-1]
            layout, _ = take(layout, COLUMN_NAMES[k], 1)
            layout = put(layout, FOUNDATION_NAMES[SUIT_INDEX[card]], (card,))
            points = scoring.move_points(state.options.scoring, COLUMN_NAMES[k], "f", 0)
            score = scoring.add(state.options.scoring, score, points)
            played.append(card)
        events.append({"type": "auto_finished", "seat": seat, "cards": played, "score": score})
        return _seat_with(g, layout=layout, score=score)

    def _finish(
        self, state: SolitarioState, seat: int, g: SeatGame, events: list[Event]
    ) -> tuple[SolitarioState, list[Event]]:
        if g.finished is None:  # a win
            bonus = scoring.timed_bonus(g.seconds) if state.options.timed else 0
            g = _seat_with(g, finished=WON, score=g.score + bonus)
        events.append({"type": "finished", "seat": seat, "result": g.finished, "score": g.score})
        state = self._with(state, seat, g)
        outcome = self.outcome(state)
        if outcome is not None:
            events.append(
                {
                    "type": "game_over",
                    "scores": list(outcome.scores),
                    "places": list(outcome.places),
                }
            )
        return state, events

    @staticmethod
    def _with(state: SolitarioState, seat: int, g: SeatGame) -> SolitarioState:
        if len(state.seats) == 1:  # playing alone: no list to build
            return SolitarioState(state.options, state.redeals, (g,))
        seats = list(state.seats)
        seats[seat] = g
        return SolitarioState(state.options, state.redeals, tuple(seats))

    # -- what is seen ---------------------------------------------------------------

    def view(self, state: SolitarioState, seat: int | None) -> View:
        opts = state.options
        public: dict[str, JSON] = {
            "draw": opts.draw,
            "scoring": opts.scoring,
            "timed": opts.timed,
            "scores": [g.score for g in state.seats],
            "finished": [g.finished for g in state.seats],
        }
        if seat is None:
            return View(seat=None, hand=(), public=public)
        g = state.seats[seat]
        layout = g.layout
        left = self.recycles_left(state, g)
        private: dict[str, JSON] = {
            "columns": [list(col) for col in layout.up],
            "face_down": [len(col) for col in layout.down],
            "stock": len(layout.stock),
            "waste": list(layout.waste),
            "foundations": list(layout.foundations),
            "recycles": g.recycles,
            "recycles_left": left,
            "moves": g.actions,
            "seconds": g.seconds,
        }
        return View(seat=seat, hand=tuple(layout.face_up()), public=public, private=private)

    def outcome(self, state: SolitarioState) -> Outcome | None:
        for g in state.seats:
            if g.finished is None:
                return None
        scores = tuple(g.score for g in state.seats)
        return Outcome(
            places=places_from_measure(scores, lower_is_better=False),
            scores=scores,
            detail={
                "results": [g.finished for g in state.seats],
                "moves": [g.actions for g in state.seats],
                "seconds": [g.seconds for g in state.seats],
            },
        )

    def cards_in_play(self, state: SolitarioState) -> list[str]:
        return [c for g in state.seats for c in g.layout.cards()]

    def hidden_cards(self, state: SolitarioState, seat: int | None) -> list[str]:
        """A seat sees its own face-up cards only: nobody sees another seat's layout (they
        play the same deal), and a spectator sees only the scores."""
        return [
            c
            for s, g in enumerate(state.seats)
            for c in (g.layout.face_down() if s == seat else g.layout.cards())
        ]
