"""What every terminal client shares: how a game looks (its renderer), and who sits
where against the bots. Both the offline game (:mod:`tavolo.cli.play.command`) and the seat at
the engine (:mod:`tavolo.cli.play.remote`) import it; it imports neither.

A game's renderer is a module ``tavolo.cli.play.render.<game>`` exposing ``RENDERER``,
registered in :data:`RENDERERS` with one line.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.registry import get_game
from tavolo.cli.i18n import N_, _, ngettext

RENDERERS: dict[str, str] = {
    "pika": "tavolo.cli.play.render.pika",
    "spades": "tavolo.cli.play.render.spades",
    "uno": "tavolo.cli.play.render.uno",
    "hearts": "tavolo.cli.play.render.hearts",
    "scopa": "tavolo.cli.play.render.fishing",
    "scopone": "tavolo.cli.play.render.fishing",
    "asso": "tavolo.cli.play.render.fishing",
    "cirulla": "tavolo.cli.play.render.fishing",
    "burraco": "tavolo.cli.play.render.burraco",
    "scala40": "tavolo.cli.play.render.scala40",
    "solitario": "tavolo.cli.play.render.solitario",
    "briscola": "tavolo.cli.play.render.briscola",
    "tresette": "tavolo.cli.play.render.tresette",
    "ciapano": "tavolo.cli.play.render.tresette",
    "bestia": "tavolo.cli.play.render.bestia",
    "poker": "tavolo.cli.play.render.poker",
    "settemezzo": "tavolo.cli.play.render.settemezzo",
}
"""Game name → module with its ``RENDERER``. One line per game."""

TITLES = {"hearts": N_("Hearts"), "spades": N_("Spades (Piki)")}
"""The games whose name a player says differently in another language; the others keep
their Italian names everywhere."""


def game_title(game_name: str) -> str:
    """The game's name on screen: ``Hearts``, in Italian ``Cuori (Hearts)``."""
    if game_name in TITLES:
        return _(TITLES[game_name])
    return get_game(game_name).title


PARTNER_LEVEL = "hard"
"""The human's partner's level in every partnership game unless ``--partner`` says
otherwise: the strongest, whatever the opponents' level (SPADES-9)."""

HUMAN = 0


class Renderer(Protocol):
    """How one game looks in the terminal; everything comes from the human's view."""

    def table(self, view: View, names: Sequence[str]) -> str:
        """The table as the seat sees it: its hand numbered, the public state."""

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        """What happened between two views of the same seat, in sentences."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Whose turn it is and who follows, in playing order (``None``: nobody's)."""

    def choice(self, action: Action, view: View) -> str:
        """A menu line for one legal action."""

    def call_prompt(self, view: View) -> str | None:
        """The question when a timed call is open for the seat (``None``: no question)."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        """The new hand order for a reorder command typed at the prompt, if it is one."""

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        """The final places."""


def renderer_for(game_name: str) -> Renderer:
    module = importlib.import_module(RENDERERS[game_name])
    renderer: Renderer = module.RENDERER
    return renderer


def partnerships(
    game_name: str, players: int, options: Mapping[str, Any] | None = None
) -> list[list[int]]:
    """The table's sides when they are partnerships (a side of two seats or more), read
    from a probe deal's view (``sides`` or ``teams``); ``[]`` when everyone plays alone."""
    game = get_game(game_name)
    try:
        state = game.new_game(dict(options or {}), players, b"sides")
    except ValueError:
        return []
    public = game.view(state, HUMAN).public
    sides = public.get("sides") or public.get("teams") or []
    if not any(len(side) > 1 for side in sides):
        return []
    return [[int(s) for s in side] for side in sides]


def partner_seats(sides: Sequence[Sequence[int]], seat: int = HUMAN) -> list[int]:
    """The seats on ``seat``'s side, other than ``seat``."""
    return [s for side in sides if seat in side for s in side if s != seat]


def bot_levels(
    game_name: str,
    players: int,
    level: str,
    partner: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[int, str]:
    """Each bot seat's level when the human sits at seat 0: ``level`` for every opponent;
    a partner plays ``partner``, or :data:`PARTNER_LEVEL` when none is asked."""
    levels = {s: level for s in range(1, players)}
    for s in partner_seats(partnerships(game_name, players, options)):
        levels[s] = partner or PARTNER_LEVEL
    return levels


LEVEL_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
"""The bots' levels as the screen names them (the options keep the English names)."""


def level_word(level: str) -> str:
    """``easy`` as the client's language says it (``facile``)."""
    return _(LEVEL_WORDS.get(level, level))


def bot_name(seat: int, level: str) -> str:
    """``Bot 2 (easy)``: a bot seat by number and level."""
    return _("Bot {seat} ({level})").format(seat=seat, level=level_word(level))


def lineup(
    game_name: str,
    players: int,
    level: str,
    partner: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> str:
    """Who plays whom, as the opening line says it: the partner and each side by name in
    a partnership game, so the line never promises weaker bots than the table has."""
    levels = bot_levels(game_name, players, level, partner, options)
    if not levels:
        return _("you alone")
    sides = partnerships(game_name, players, options)
    if not sides:
        return ngettext(
            "you against {n} {level} bot", "you against {n} {level} bots", len(levels)
        ).format(n=len(levels), level=level_word(level))
    names = [_("You"), *(bot_name(s, levels[s]) for s in range(1, players))]
    return sides_line(sides, names, HUMAN)


TABLE_OPTIONS = "table_options"
"""Where a client puts the table's options (defaults filled in) in the views it hands a
renderer: a game's view may not repeat them (Ciapanò's ``limit``)."""


def with_options(view: View, options: Mapping[str, Any]) -> View:
    """The view with the table's options beside its public part, for the renderer."""
    return View(view.seat, view.hand, {**view.public, TABLE_OPTIONS: dict(options)}, view.private)


def table_options(game_name: str, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The table's options with the game's defaults filled in (``{}`` if they are not
    the game's: the table itself then says what is wrong)."""
    try:
        return get_game(game_name).options(dict(given or {}))
    except ValueError:
        return dict(given or {})


def sides_line(sides: Sequence[Sequence[int]], names: Sequence[str], me: int) -> str:
    """``you and Giulia against Bot 1 (easy) & Bot 3 (easy)``: the seat's side by name,
    then every other side."""
    mine = _(" and ").join([_("you"), *(names[s] for s in partner_seats(sides, me))])
    others = [" & ".join(names[s] for s in side) for side in sides if me not in side]
    return _("{mine} against {others}").format(mine=mine, others=", ".join(others))


def arrangement(
    hand: Sequence[str], command: str, key: Callable[[str], Any]
) -> tuple[str, ...] | None:
    """The hand in the order a typed ``sort`` (by ``key``) or ``move I J`` (card I to
    place J, counted from 1) asks for; ``None`` when the line is neither."""
    words = command.lower().split()
    if len(words) == 1 and words[0] in ("sort", _("sort")):
        return tuple(sorted(hand, key=key))
    if (
        len(words) == 3
        and words[0] in ("move", _("move"))
        and words[1].isdigit()
        and words[2].isdigit()
    ):
        cards = list(hand)
        i, j = int(words[1]) - 1, int(words[2]) - 1
        if 0 <= i < len(cards) and 0 <= j < len(cards):
            cards.insert(j, cards.pop(i))
            return tuple(cards)
    return None


def arranges_locally(renderer: Renderer) -> bool:
    """The rules keep no order of this game's hands (Burraco, Scala 40): the client keeps
    the player's arrangement itself (:class:`HandOrder`) instead of asking the table."""
    return bool(getattr(renderer, "arranges_locally", False))


class HandOrder:
    """The player's own arrangement of their hand, kept by the client where the rules
    keep none: every view is shown with the cards still held in that order, the cards
    drawn since at the end."""

    def __init__(self) -> None:
        self.order: tuple[str, ...] = ()

    def apply(self, view: View) -> View:
        if not self.order:
            return view
        left = Counter(view.hand)
        arranged = []
        for card in self.order:
            if left[card] > 0:
                arranged.append(card)
                left[card] -= 1
        placed = Counter(arranged)
        drawn = []
        for card in view.hand:
            if placed[card] > 0:
                placed[card] -= 1
            else:
                drawn.append(card)
        return View(view.seat, (*arranged, *drawn), view.public, view.private)


def arranges_hand(renderer: Renderer, view: View) -> bool:
    """Whether the seat may arrange its hand here: the game takes a reorder (the renderer
    turns ``sort`` into a new order) and there is a hand to arrange."""
    return len(view.hand) > 1 and renderer.reorder(view, "sort") is not None


def new_recall(renderer: Renderer) -> Any:
    """A fresh memory of the seat's own moves, for a renderer whose menu depends on them
    (Solitario offers no move that undoes the one before); ``None`` for the others."""
    make = getattr(renderer, "new_recall", None)
    return make() if make is not None else None


def remember(recall: Any, view: View, legal: Sequence[Action], action: Action) -> None:
    """The seat chose ``action`` from ``legal`` at ``view``: tell the recall, if any."""
    if recall is not None:
        recall.note(view, legal, action)


def menu(
    renderer: Renderer, view: View, legal: Sequence[Action], recall: Any = None
) -> list[tuple[str, Action]]:
    """The numbered choices: every legal action, unless the renderer lists fewer (Poker's
    change is typed as the cards to change, not 31 numbered combinations), some of them
    by what the seat did before (``recall``, see :func:`new_recall`)."""
    listed = getattr(renderer, "menu", None)
    if listed is not None:
        chosen: list[tuple[str, Action]] = (
            listed(view, legal) if recall is None else listed(view, legal, recall)
        )
        return chosen
    return [(renderer.choice(action, view), action) for action in legal]


def typed_action(
    renderer: Renderer, view: View, legal: Sequence[Action], text: str
) -> Action | None:
    """A legal action typed in words the renderer reads (``change 1 3``), if it is one."""
    reader = getattr(renderer, "typed", None)
    if reader is None:
        return None
    action: Action | None = reader(view, legal, text)
    return action


def amount_question(renderer: Renderer, view: View, action: Action) -> str | None:
    """The question a menu choice asks before it is an action (Poker's "another
    amount"), or ``None`` when the choice is the action itself."""
    ask = getattr(renderer, "amount_question", None)
    question: str | None = ask(view, action) if ask is not None else None
    return question


def amount_answer(
    renderer: Renderer, view: View, legal: Sequence[Action], action: Action, text: str
) -> Action | None:
    """The legal action an answer to :func:`amount_question` makes, if it makes one."""
    read = getattr(renderer, "amount_answer", None)
    answer: Action | None = read(view, legal, action, text) if read is not None else None
    return answer


def not_an_amount(text: str, action: Action, legal: Sequence[Action]) -> str:
    """The refusal of an answer that is no legal amount, with the amounts that are."""
    amounts = [int(a.amount) for a in legal if a.kind is action.kind and a.amount is not None]
    if amounts:
        span = _("a number from {low} to {high}").format(low=min(amounts), high=max(amounts))
    else:
        span = _("a number")
    return "  " + _("'{text}' is not an amount: type {span}, or Enter to go back").format(
        text=text, span=span
    )


def _typed_words(renderer: Renderer, view: View) -> list[str]:
    """What else than a number the prompt takes here."""
    hint = getattr(renderer, "typing_hint", None)
    extra: str | None = hint(view) if hint is not None else None
    words = [extra] if extra else []
    if arranges_hand(renderer, view):
        words.extend([_("'sort'"), _("'move I J' (card I to place J)")])
    return words


def choice_prompt(renderer: Renderer, view: View) -> str:
    """``Your choice (number; 'sort', 'move I J', 'quit'): `` with only what works here."""
    words = [w.split(" (")[0] for w in _typed_words(renderer, view)] + [_("'quit'")]
    return _("Your choice (number; {words}): ").format(words=", ".join(words))


def not_a_choice(renderer: Renderer, view: View, text: str, count: int) -> str:
    """The refusal of a line that is none of the choices, saying what would be one."""
    words = [_("a number from 1 to {n}").format(n=count), *_typed_words(renderer, view)]
    return "  " + _("'{text}' is not a choice: type {words} or 'quit'").format(
        text=text, words=", ".join(words)
    )
