"""``tavolo play GAME``: a whole game in the terminal against bots, with no server (MODE-1).

With ``--server`` (or ``--table``) the same game is played at the engine instead; that
mode lives in :mod:`tavolo.cli.play.remote`, so this module needs no network code.

The loop is the same for every game: the human (seat 0) sees only their view and picks a
numbered choice from the legal actions; bots choose from their own views. What a table
and a choice look like is the game's *renderer* (:mod:`tavolo.cli.play.renderers`).

Timers run on the terminal's clock here, outside the rules: a Pika left unsaid for
longer than the window is answered with the ``EXPIRE`` the rules expect.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import LEVELS, SeatedBot
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.contract import Game, Outcome, View
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.registry import get_game
from tavolo.cli.i18n import _, add_lang_argument
from tavolo.cli.play.game_help import (
    DEFAULT_LEVEL,
    DEFAULT_PLAYERS,
    GameHelp,
    seat_counts_text,
)
from tavolo.cli.play.refusals import rule_error_text
from tavolo.cli.play.renderers import (
    PARTNER_LEVEL,
    RENDERERS,
    HandOrder,
    Renderer,
    amount_answer,
    amount_question,
    arranges_locally,
    bot_levels,
    bot_name,
    choice_prompt,
    game_title,
    lineup,
    menu,
    new_recall,
    not_a_choice,
    not_an_amount,
    remember,
    renderer_for,
    table_options,
    typed_action,
    with_options,
)
from tavolo.cli.play.table_options import add_option_argument, parse_options
from tavolo.cli.play.wording import SCREEN_WIDTH, fit, you


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help=_("play a game in the terminal against bots (no server)"),
        description=_(
            "Play a whole game against bots, offline. You are seat 0. "
            "`tavolo play GAME --help` also lists the game's options, seats and bots."
        ),
        add_help=False,
    )
    parser.add_argument(
        "-h", "--help", action=GameHelp, help=_("this help, and the game's own when one is named")
    )
    parser.add_argument("game", choices=sorted(RENDERERS), help=_("which game"))
    parser.add_argument(
        "--players", type=int, default=None, help=_("seats at the table (4; Solitario 1)")
    )
    parser.add_argument(
        "--level", choices=LEVELS, default=DEFAULT_LEVEL, help=_("the opponents' bot level")
    )
    parser.add_argument(
        "--partner",
        choices=LEVELS,
        default=None,
        help=_("your partner's level in a partnership game (default {level})").format(
            level=PARTNER_LEVEL
        ),
    )
    add_option_argument(parser)
    parser.add_argument("--seed", default=None, help=_("deal seed, to replay a game"))
    engine = os.environ.get("TAVOLO_ENGINE_ADDRESS", "127.0.0.1:50052")
    parser.add_argument(
        "--server",
        nargs="?",
        const=engine,
        default=None,
        metavar="ADDRESS",
        help=_("play at the engine over gRPC instead (default address {address})").format(
            address=engine
        ),
    )
    parser.add_argument(
        "--table",
        metavar="ID",
        help=_("join a table the lobby formed, such as a room's (implies --server)"),
    )
    add_lang_argument(parser)
    parser.add_argument("--as", dest="as_nick", metavar="NICK", help=_("which saved login plays"))
    parser.add_argument(
        "--daily",
        action="store_true",
        help=_("Solitario: enter today's Duplicate Solitario, the same deal for everyone"),
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    if args.players is None:
        args.players = DEFAULT_PLAYERS.get(args.game, 4)
    if args.players not in get_game(args.game).seat_counts():
        title = game_title(args.game)
        print(
            _("{title} is for {counts} players, not {players}").format(
                title=title, counts=seat_counts_text(args.game), players=args.players
            )
        )
        return 2
    try:
        options = parse_options(args.options)
    except ValueError as exc:
        print(_("cannot start: {why}").format(why=exc))
        return 2
    if args.daily:  # see tavolo.cli.play.daily
        if args.game != "solitario" or args.table is not None:
            print(_("--daily is for `tavolo play solitario` alone, without --table"))
            return 2
        from tavolo.cli.play.daily import play_daily

        return play_daily(args, None)
    if args.server is not None or args.table is not None:  # see tavolo.cli.play.remote
        from tavolo.cli.play.remote import play_remote

        return play_remote(args, None)  # None: the terminal's own keyboard
    seed = args.seed if args.seed is not None else os.urandom(6).hex()
    return play(
        args.game,
        args.players,
        args.level,
        seed,
        input_line=_read_line,
        partner=args.partner,
        options=options,
    )


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


HUMAN = 0


class Quit(Exception):
    """The player left the game."""


def play(
    game_name: str,
    players: int,
    level: str,
    seed: str,
    *,
    input_line: Callable[[str], str | None],
    out: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
    partner: str | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    """Play one game to its end; returns the exit code (0 done, 1 quit, 2 bad set-up)."""
    out = out if out is not None else sys.stdout
    try:
        game = get_game(game_name)
        state = game.new_game(options or {}, players, seed.encode())
    except ValueError as exc:
        print(_("cannot start: {why}").format(why=exc), file=out)
        return 2
    renderer = renderer_for(game_name)
    levels = bot_levels(game_name, players, level, partner, options)
    bots = {s: make_bot(game_name, levels[s], f"{seed}:{s}") for s in range(1, players)}
    names = [you(), *(bot_name(s, levels[s]) for s in range(1, players))]
    who = lineup(game_name, players, level, partner, options)
    first = _("{title}: {who}. Seed: {seed}").format(
        title=game_title(game_name), who=who, seed=seed
    )
    if len(first) > SCREEN_WIDTH:  # the seed on a line of its own, whole, to copy
        head = _("{title}: {who}.").format(title=game_title(game_name), who=who)
        first = f"{fit(head)}\n" + _("Seed: {seed}").format(seed=seed)
    print(first, file=out)
    table = _Table(game, state, renderer, bots, names, input_line, out, clock)
    table.options = table_options(game_name, options)
    try:
        outcome = table.run()
    except Quit:
        print(_("You left the table."), file=out)
        return 1
    print(fit(renderer.outcome(outcome, table.view(), names)), file=out)
    return 0


class _Table:
    """One offline table: applies every move, narrates what the human may know."""

    def __init__(
        self,
        game: Game[Any],
        state: Any,
        renderer: Renderer,
        bots: dict[int, SeatedBot],
        names: list[str],
        input_line: Callable[[str], str | None],
        out: TextIO,
        clock: Callable[[], float],
    ) -> None:
        self.game, self.state, self.renderer = game, state, renderer
        self.bots, self.names = bots, names
        self.input_line, self.out, self.clock = input_line, out, clock
        self.seen: View | None = None
        self.options: dict[str, Any] = {}
        self.hand_order = HandOrder()
        self.recall = new_recall(renderer)

    def view(self) -> View:
        """The human's view, as the renderer takes it: with the table's options, and the
        hand in the player's own order where the client keeps it."""
        view = self.hand_order.apply(self.game.view(self.state, HUMAN))
        return with_options(view, self.options)

    def run(self) -> Outcome:
        game = self.game
        self._narrate()
        while (outcome := game.outcome(self.state)) is None:
            self._bots_answer_calls()
            if game.outcome(self.state) is not None:
                continue
            seat = min(game.to_act(self.state))
            if seat == HUMAN:
                self._human_turn()
            else:
                bot = self.bots[seat]
                legal = game.legal_actions(self.state, seat)
                self._apply(seat, bot.choose(game.view(self.state, seat), legal))
        self._narrate()
        return outcome

    def _apply(self, seat: int, action: Action) -> None:
        """One move, told at once: news comes out in the order it happened."""
        self.state, _events = self.game.apply(self.state, seat, action)
        self._narrate()
        if seat == HUMAN:
            self._timed_call()

    def _bots_answer_calls(self) -> None:
        """Bots with something to say out of turn (a Pika call) say it at once."""
        for seat, bot in self.bots.items():
            if seat in self.game.to_act(self.state):
                continue
            legal = self.game.legal_actions(self.state, seat)
            if legal:
                self._apply(seat, bot.choose(self.game.view(self.state, seat), legal))

    def _say(self, text: str) -> None:
        print(fit(text), file=self.out)

    def _narrate(self) -> None:
        view = self.view()
        if view == self.seen:
            return  # nothing new: a view told twice would tell its news twice
        for line in self.renderer.news(self.seen, view, self.names):
            self._say(line)
        self.seen = view

    def _human_turn(self) -> None:
        self._narrate()
        view = self.view()
        legal = self.game.legal_actions(self.state, HUMAN)
        choices = menu(self.renderer, view, legal, self.recall)
        self._say(self.renderer.table(view, self.names))
        for n, (label, _action) in enumerate(choices, 1):
            self._say(f"  {n}) {label}")
        while True:
            line = self.input_line(choice_prompt(self.renderer, view))
            if line is None or line.strip().lower() in ("q", "quit", _("quit")):
                raise Quit
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(choices):
                chosen = self._amount(view, legal, choices[int(text) - 1][1])
                if chosen is None:  # Enter instead of an amount: the menu again
                    self._human_turn()
                    return
                remember(self.recall, view, legal, chosen)
                self._apply(HUMAN, chosen)
                return
            typed = typed_action(self.renderer, view, legal, text)
            if typed is not None:
                remember(self.recall, view, legal, typed)
                self._apply(HUMAN, typed)
                return
            order = self.renderer.reorder(view, text) if len(view.hand) > 1 else None
            if order is not None and arranges_locally(self.renderer):
                self.hand_order.order = order
                self._human_turn()
                return
            if order is not None:
                try:
                    self.state, _events = self.game.apply(
                        self.state, HUMAN, Action(ActionKind.REORDER, cards=order)
                    )
                except RuleError as exc:
                    self._say(f"  {rule_error_text(exc)}")
                    continue
                self._human_turn()
                return
            self._say(not_a_choice(self.renderer, view, text, len(choices)))

    def _amount(self, view: View, legal: list[Action], choice: Action) -> Action | None:
        """The action a menu choice stands for, asking for the amount when the choice is
        "another amount"; ``None`` when the player goes back to the menu instead."""
        question = amount_question(self.renderer, view, choice)
        if question is None:
            return choice
        while True:
            line = self.input_line(question)
            if line is None or line.strip().lower() in ("q", "quit", _("quit")):
                raise Quit
            if not line.strip():
                return None
            action = amount_answer(self.renderer, view, legal, choice, line.strip())
            if action is not None:
                return action
            self._say(not_an_amount(line.strip(), choice, legal))

    def _timed_call(self) -> None:
        """A timed call opened for the human: ask at once, expire it if the answer is late."""
        view = self.view()
        question = self.renderer.call_prompt(view)
        if question is None:
            return
        timer = next(
            t for t in self.game.timers(self.state) if t.seat == HUMAN and t.kind == "call"
        )
        started = self.clock()
        answer = self.input_line(question)
        if answer is None:
            raise Quit
        late = timer.millis is not None and (self.clock() - started) * 1000 > timer.millis
        if answer.strip() == "1" and not late:
            call = next(
                a for a in self.game.legal_actions(self.state, HUMAN) if a.kind is ActionKind.CALL
            )
            self.state, _events = self.game.apply(self.state, HUMAN, call)
        else:
            self._say("  " + (_("Too late!") if late else _("You kept quiet.")))
            expire = Action(ActionKind.EXPIRE, timer=timer.key)
            self.state, _events = self.game.apply(self.state, HUMAN, expire)
