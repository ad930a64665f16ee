"""``tavolo play`` as a player reads it: every game to its end within 80 columns, the
prompt offering only what works, the news in the order it happened, sides and seats
named in good English (MODE-1, the terminal client)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.fishing.deck import DECKS
from tavolo.cardgames.registry import get_game
from tavolo.cli.main import main
from tavolo.cli.play.renderers import (
    RENDERERS,
    HandOrder,
    arranges_hand,
    choice_prompt,
    renderer_for,
)
from tavolo.cli.play.wording import agree, count, does, fit, side_places

from .play_script import Player, play_game

ALL_GAMES = sorted(RENDERERS)
ARRANGED = {"pika", "uno", "burraco", "scala40"}
"""The games whose hand the player may arrange: Pika and Uno at the table (REORDER),
Burraco and Scala 40 in the client, whose rules keep no order of a hand."""


@pytest.fixture(scope="module")
def screens() -> dict[str, str]:
    """One whole game of each of the 17, played by a random player."""
    played = {}
    for game in ALL_GAMES:
        code, text = play_game(game, f"screen-{game}")
        assert code == 0, f"{game} did not finish:\n{text[-2000:]}"
        played[game] = text
    return played


def test_mode_1_every_game_plays_to_its_end_within_80_columns(screens: dict[str, str]) -> None:
    """MODE-1: a game of each of the 17 ends with its final places, and no line of any
    screen (tables, menus, news, counts, prompts) is wider than 80 columns."""
    assert set(screens) == set(ALL_GAMES) and len(screens) == 17
    for game, text in screens.items():
        assert "--- Final places" in text, game
        wide = [line for line in text.splitlines() if len(line) > 80]
        assert not wide, f"{game}: {wide[:3]}"


def test_mode_1_each_hand_ends_once_on_screen(screens: dict[str, str]) -> None:
    """The end of a hand is told once, also the last one (news comes move by move)."""
    for game, text in screens.items():
        ends = re.findall(r"^((?:Hand|Round|Tie-break hand) \d+)(?:,| is over)", text, re.M)
        assert len(ends) == len(set(ends)), (game, ends)


def test_mode_1_sort_and_move_are_offered_only_where_the_hand_can_be_arranged(
    screens: dict[str, str],
) -> None:
    """The prompt names 'sort' and 'move I J' only in the games whose rules take a new
    order of the hand; elsewhere they are not words of the prompt or of its refusals."""
    for game, text in screens.items():
        prompts = [line for line in text.splitlines() if "Your choice (" in line]
        assert prompts, game
        offers = any("'sort'" in line for line in prompts)
        assert offers == (game in ARRANGED), game
    player = Player("sort", patience=0)
    player.script = ["sort"]
    play_game("briscola", "sort", players=2, player=player)
    refusal = next(line for line in player.out.getvalue().splitlines() if "'sort' is" in line)
    assert refusal.endswith("type a number from 1 to 3 or 'quit'")


@pytest.mark.parametrize("game", sorted(ARRANGED))
def test_mode_1_sort_and_move_work_where_they_are_offered(game: str) -> None:
    """``move 1 2`` puts the first card second, ``sort`` orders the hand, and the
    arrangement holds on the next screen."""
    player = Player("arrange", patience=0)
    player.script = ["move 1 2", "sort"]
    code, text = play_game(game, "arrange", player=player)
    assert code == 0
    hands = [
        re.findall(r"\[\d+\] (\S+(?: \S+)?)", line.split("Your hand: ")[1])
        for line in text.replace("\n    [", "  [").splitlines()
        if line.startswith("Your hand: ")
    ]
    assert hands[1][:2] == [hands[0][1], hands[0][0]] and hands[1][2:] == hands[0][2:]
    assert sorted(hands[2]) == sorted(hands[0]) and "is not a choice" not in text[:6000]


@given(
    st.lists(st.sampled_from(["AS", "2S", "KH", "JK", "5D"]), max_size=12),
    st.lists(st.sampled_from(["AS", "2S", "KH", "JK", "5D", "9C"]), max_size=14),
)
def test_a_kept_arrangement_shows_the_same_cards(order: list[str], hand: list[str]) -> None:
    """The client's arrangement never adds, loses or doubles a card (two decks hold
    doubles): the cards still held keep its order, the rest follow as dealt."""
    keep = HandOrder()
    keep.order = tuple(order)
    shown = keep.apply(View(0, tuple(hand), {}, {})).hand
    assert sorted(shown) == sorted(hand)
    held = Counter(order) & Counter(hand)
    k = sum(held.values())
    assert Counter(shown[:k]) == held
    assert _subsequence(shown[:k], order) and _subsequence(shown[k:], hand)


def _subsequence(part: Sequence[str], whole: Sequence[str]) -> bool:
    rest = iter(whole)
    return all(card in rest for card in part)


def test_mode_1_the_prompt_follows_the_renderer() -> None:
    """A hand of one card has nothing to arrange, even in Pika."""
    pika = renderer_for("pika")
    one = View(0, ("R5",), {}, {})
    two = View(0, ("R5", "B7"), {}, {})
    assert not arranges_hand(pika, one) and arranges_hand(pika, two)
    assert "'sort'" not in choice_prompt(pika, one) and "'sort'" in choice_prompt(pika, two)
    assert "'sort'" not in choice_prompt(renderer_for("briscola"), two)


PARTNERSHIP_GAMES = ["asso", "briscola", "burraco", "cirulla", "scopa", "scopone", "spades"]


@pytest.mark.parametrize("game", [*PARTNERSHIP_GAMES, "tresette"])
def test_mode_1_two_partnerships_read_1st_and_2nd(game: str, screens: dict[str, str]) -> None:
    """Places of sides count sides: the second of two partnerships is 2nd, never 3rd."""
    text = screens.get(game) or play_game(game, "sides")[1]
    final = text.split("--- Final places")[1].splitlines()[1:3]
    assert [line[:4] for line in final] in ([" 1st", " 2nd"], [" 1st", " 1st"]), final
    assert all(" & " in line for line in final)


@given(st.lists(st.integers(1, 8), min_size=1, max_size=6))
def test_side_places_count_the_sides_ahead(seat_places: list[int]) -> None:
    places = side_places(seat_places)
    for mine, place in zip(seat_places, places, strict=True):
        assert place == 1 + sum(1 for other in seat_places if other < mine)
    assert min(places) == 1 and max(places) <= len(places)


YOU_WITH_S = re.compile(r"\bYou (?!pass\b)([a-z]+[^s]s)\b")
ONE_PLURAL = re.compile(
    r"(?<![A-Za-z] )\b1 (cards|tricks|aces|thirds|points|chips|hands|bags|moves|turns)\b"
)


def test_mode_1_you_and_one_thing_read_in_good_english(screens: dict[str, str]) -> None:
    """No "You goes", "You scores", "1 tricks", "1 cards" on any screen."""
    for game, text in screens.items():
        assert not YOU_WITH_S.findall(text), (game, YOU_WITH_S.findall(text)[:3])
        assert not ONE_PLURAL.findall(text), (game, ONE_PLURAL.findall(text)[:3])


def test_wording_agrees_with_you_and_counts() -> None:
    assert does("You", "goes", "go") == "You go"
    assert does("Bot 1 (easy)", "goes", "go") == "Bot 1 (easy) goes"
    assert agree("You", "is", "are") == "are" and agree("Marco", "is", "are") == "is"
    assert [count(n, "trick", "tricks") for n in (0, 1, 2)] == ["0 tricks", "1 trick", "2 tricks"]


@given(st.text(alphabet="ab c", min_size=0, max_size=300), st.integers(0, 6))
def test_fit_keeps_every_word_and_wraps_at_80(text: str, indent: int) -> None:
    line = " " * indent + text
    fitted = fit(line)
    assert fitted.split() == line.split()
    for part in fitted.split("\n"):
        assert len(part) <= 80 or " " not in part.strip()


def test_mode_1_play_takes_table_options_and_a_game_has_its_own_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--option NAME=VALUE`` reaches the table; ``--help`` after a game lists its
    options with defaults and allowed values, its seat counts and the bots' levels; a
    wrong seat count names the counts the game takes."""
    with pytest.raises(SystemExit):
        main(["play", "hearts", "--help"])
    help_text = capsys.readouterr().out
    assert "Hearts is for 4 players (--players, default 4)." in help_text
    assert "rules=seed (one of seed, standard)" in help_text and "target=100" in help_text
    assert "--level medium" in help_text
    assert main(["play", "hearts", "--players", "3"]) == 2
    assert capsys.readouterr().out.strip() == "Hearts is for 4 players, not 3"
    assert main(["play", "hearts", "--option", "rules=nonsense"]) == 2
    assert "must be one of 'seed', 'standard'" in capsys.readouterr().out
    _, standard = play_game("hearts", "opt", options={"rules": "standard"})
    _, seeded = play_game("hearts", "opt")
    assert "(standard rules, to 100)" in standard and "Hearts not broken yet" in standard
    assert "(seed rules, to 100)" in seeded and "Hearts not broken" not in seeded


@pytest.mark.parametrize("game", ALL_GAMES)
def test_every_game_help_lists_each_option_and_its_seats(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["play", game, "-h"])
    text = capsys.readouterr().out
    rules = get_game(game)
    assert f"{rules.title} is for " in text
    for spec in rules.option_specs:
        assert f"  {spec.name}=" in text, spec.name
    if game in PARTNERSHIP_GAMES or game == "tresette":
        assert "--partner hard" in text


def test_mode_1_partner_and_level_set_every_bot() -> None:
    """SPADES-9: ``--level`` sets the opponents, ``--partner`` the partner (hard unless
    asked); the first line and every later name say the same."""
    _, text = play_game("spades", "levels", level="easy", partner="medium")
    assert text.startswith(
        "Spades (Piki): you and Bot 2 (medium) against Bot 1 (easy) & Bot 3 (easy)."
    )
    assert "(hard)" not in text
    _, text = play_game("briscola", "levels", level="medium")
    assert text.startswith("Briscola: you and Bot 2 (hard) against Bot 1 (medium) & Bot 3")


def test_cirulla_declarations_come_before_the_declarers_card() -> None:
    """News in the order it happened: an accuso is told when it is made, with the
    three cards shown, before the card the declarer then plays."""
    seen = 0
    for n in range(30):
        _, text = play_game("cirulla", f"order{n}")
        lines = text.splitlines()
        for i, line in enumerate(lines):
            found = re.match(r"^(Bot \d \(\w+\)) declares .*, showing (.*)\.$", line)
            if not found:
                continue
            seen += 1
            assert len(found[2].split()) == 3, line
            later = [x for x in lines[i + 1 :] if x.startswith(found[1] + ": ")]
            earlier = [x for x in lines[max(0, i - 3) : i] if x.startswith(found[1] + ": ")]
            assert later and not earlier, lines[i - 3 : i + 2]
        if seen >= 3:
            break
    assert seen >= 3


def test_burraco_tells_every_seats_draw_meld_and_discard(screens: dict[str, str]) -> None:
    """Each bot's turn is told in Burraco's terms by the seat that did it; melds are
    numbered from 1, as the menu's "add ... to meld N" counts them."""
    text = screens["burraco"]
    for bot in ("Bot 1 (easy)", "Bot 2 (hard)", "Bot 3 (easy)"):
        assert re.search(rf"^{re.escape(bot)} (draws from the stock|takes the discard)", text, re.M)
        assert re.search(rf"^{re.escape(bot)} discards ", text, re.M)
    assert re.search(r"^Bot \d \(\w+\) melds .* \(meld \d+\)\.$", text, re.M)
    assert not re.search(r"^\s+0: ", text, re.M) and not re.search(r"meld 0\b", text)
    assert " & Bot" not in "".join(re.findall(r"^.* meld[s]? .*$", text, re.M))


def test_uno_shows_the_last_hand_and_skips(screens: dict[str, str]) -> None:
    text = screens["uno"]
    before_final = text.split("--- Final places")[0].splitlines()
    last_hand = [line for line in before_final if re.match(r"^Hand \d+ is over", line)]
    assert last_hand, "no hand's score told"
    assert re.match(r"^Hand \d+ is over: (You score|Bot \d \(\w+\) scores|nobody)", last_hand[-1])
    assert before_final.index(last_hand[-1]) > len(before_final) - 20
    for name in ("pika", "uno"):
        screen = screens[name]
        skipped = re.findall(r"^(.*) played \w+ skip\.\n(.*) (?:is|are) skipped\.$", screen, re.M)
        played = re.findall(r"^.* played \w+ skip\.$", screen, re.M)
        assert len(skipped) == len(played), name


def test_ciapano_names_its_limit(screens: dict[str, str]) -> None:
    assert "(the match ends at 21 points)" in screens["ciapano"]
    _, text = play_game("ciapano", "limit", options={"limit": 31})
    assert "(the match ends at 31 points)" in text and "(limit)" not in text


def test_scala40_take_back_says_what_it_undoes() -> None:
    scala = renderer_for("scala40")
    take_back = Action(ActionKind.PASS)
    melds = [{"pending": True, "shown": "A♠ 2♠ 3♠", "owner": 0, "cards": ["AS", "2S", "3S"]}]
    for taken, pending, words in [
        (None, melds, "take back your opening melds"),
        ("A♦", melds, "take back your opening melds and put A♦ back on the pozzo"),
        ("A♦", [], "put A♦ back on the pozzo"),
    ]:
        view = View(0, (), {"pozzo_card_taken": taken, "melds": pending}, {})
        assert scala.choice(take_back, view) == words


def test_poker_change_is_typed_as_the_cards_to_change() -> None:
    """POKER: the change menu lists "keep all five" alone; ``change 1 4`` picks the
    change of those two cards, and nothing else reads as one."""
    poker = get_game("poker")
    renderer = renderer_for("poker")
    for n in range(40):
        state = poker.new_game({}, 4, f"change{n}".encode())
        for _ in range(40):
            seat = min(poker.to_act(state))
            legal = poker.legal_actions(state, seat)
            if seat == 0 and any(a.kind is ActionKind.DISCARD for a in legal):
                break
            stay = [a for a in legal if a.kind in (ActionKind.BET, ActionKind.CALL_BET)]
            state, _ = poker.apply(state, seat, stay[0] if stay else legal[0])
        else:
            continue
        view = poker.view(state, 0)
        menu = renderer.menu(view, legal)
        assert [label for label, _ in menu] == ["keep all five (servito)"]
        chosen = renderer.typed(view, legal, "change 1 4")
        assert chosen is not None and set(chosen.cards) == {view.hand[0], view.hand[3]}
        assert renderer.typed(view, legal, "change 1 9") is None
        assert renderer.typed(view, legal, "swap 1") is None
        assert "[1] " in renderer.table(view, ["You", "Bot 1", "Bot 2", "Bot 3"])
        return
    pytest.fail("no deal reached the change")


def test_solitario_words_and_moves_that_lead_somewhere() -> None:
    renderer = renderer_for("solitario")
    me = {
        "columns": [["8S", "7H", "6C"], ["AH"], ["9D"], [], [], [], ["2C"]],
        "face_down": [1, 0, 0, 0, 0, 0, 0],
        "stock": 0,
        "waste": ["KD", "QD"],
        "foundations": [1, 0, 0, 0],
        "recycles_left": None,
        "moves": 3,
    }
    view = View(0, (), {"draw": 1, "scoring": "standard", "scores": [0], "finished": [None]}, me)
    run = Action(ActionKind.MOVE, source="t1", target="t3", count=2)
    assert renderer.choice(run, view).startswith("7♥ and the card on it from column 1")
    three = Action(ActionKind.MOVE, source="t1", target="t3", count=3)
    assert "8♠ and the 2 cards on it" in renderer.choice(three, view)
    ace_down = Action(ActionKind.MOVE, source="fS", target="t7", count=1)
    stop = Action(ActionKind.STOP)
    draw = Action(ActionKind.DRAW)
    menu = renderer.menu(view, [ace_down, run, draw, stop])
    assert [a for _, a in menu] == [run, draw, stop]  # an ace off its foundation only loops
    stuck = {**me, "waste": ["5D", "QH"], "columns": [["8S"], ["KH"], ["9D"], ["QS"], [], [], []]}
    stuck["face_down"] = [1, 0, 0, 0, 1, 1, 1]
    view = View(0, (), view.public, stuck)
    assert renderer.menu(view, [draw, stop]) == [
        ("stop: nothing but the stock can move any more", stop)
    ]


def test_scopa_count_is_a_table_within_80_columns(screens: dict[str, str]) -> None:
    """Scopa's 4-seat count is a table: a row per line, a column per side."""
    text = screens["scopa"]
    count_block = text.split("The hand is over. The count:\n")[1].splitlines()
    head, carte = count_block[0], count_block[1]
    assert head.split() == ["You", "&", "Bot", "2", "Bot", "1", "&", "Bot", "3"]
    assert re.match(r"^  carte\s+\d+( \+1)?\s+\d+( \+1)?$", carte)
    assert all(len(line) <= 80 for line in count_block[:8])
    captured = [line for line in screens["cirulla"].splitlines() if line.startswith("Captured")]
    assert not captured  # the captures are a row of the table now, not a 120-column line


@given(st.integers(1, 30), st.sampled_from(["red 7", "yellow +2", "wild +4", "green skip"]))
def test_fit_keeps_the_cards_of_a_hand_whole(cards: int, card: str) -> None:
    """A wrapped hand breaks between cards, never inside ``[6] yellow 6``."""
    items = [f"[{n}] {card}" for n in range(1, cards + 1)]
    fitted = fit("Your hand: " + "  ".join(items)).split("\n")
    assert all(len(line) <= 80 for line in fitted)
    found = re.findall(r"\[\d+\] [a-z]+ [+\w]+", "\n".join(fitted))
    assert found == items


def test_poker_showdown_shows_your_cards(screens: dict[str, str]) -> None:
    """At a showdown the player's own hand is shown with its five cards."""
    text = screens["poker"]
    shown = re.findall(r"^Hand \d+, showdown:\n((?:  .*\n)+)", text, re.M)
    assert any("\n  You: " in "\n" + block for block in shown), "no showdown of yours"
    for block in shown:
        mine = [line for line in block.splitlines() if line.startswith("  You: ")]
        for line in mine:
            cards = re.search(r"\(([^()]*)\)$", line)
            assert cards is not None and len(cards[1].split()) == 5, line


@given(st.integers(1, 12), st.integers(2, 5))
def test_fit_keeps_a_player_and_their_score_together(players: int, gap: int) -> None:
    """``Bot 2 (medium) 0`` never splits between a name and its number."""
    items = [f"Bot {n} (medium) {n * 7}" for n in range(1, players + 1)]
    fitted = fit("Totals (the match ends at 21 points): " + (" " * gap).join(items))
    assert all(len(line) <= 80 for line in fitted.split("\n"))
    assert re.findall(r"Bot \d+ \(medium\) \d+", fitted) == items


def test_fishing_verbs_agree_with_whoever_is_named() -> None:
    """At the engine the player may sit anywhere: seat 0 is "Giulia deals", a lone
    seat "takes" and "wins", partners and You "take" and "win"."""
    scopa = get_game("scopa")
    renderer: Any = renderer_for("scopa")
    p = dict(scopa.view(scopa.new_game({}, 2, b"verbs"), 1).public)
    p.update(dealer=0, bonus=[0, 1], cappotto=None)
    deck = DECKS[p["deck"]]
    opens = renderer._hand_opens(p, ["Giulia", "You"], deck)
    assert opens[0].startswith("Hand 1: Giulia deals; on the table")
    assert ": Giulia takes it as the dealer's side, 1 scopa." in opens[1]
    assert ": You take it as the dealer's side" in renderer._hand_opens(p, ["You", "G"], deck)[1]
    p4 = dict(scopa.view(scopa.new_game({}, 4, b"verbs"), 0).public)
    p4.update(bonus=[1, 2])
    four = renderer._hand_opens(p4, ["You", "Bot 1", "Bot 2", "Bot 3"], deck)
    assert ": Bot 1 & Bot 3 take it as the dealer's side, 2 scope." in four[1]


@given(
    st.lists(
        st.tuples(st.sampled_from(["You", "Bot 1 (easy)", "Bot 3 (medium)"]), st.integers(1, 7)),
        min_size=1,
        max_size=8,
    )
)
def test_fit_keeps_each_play_of_a_trick_whole(plays: list[tuple[str, int]]) -> None:
    """A long trick breaks between plays, never inside ``Bot 1 (easy) 7 coppe``."""
    parts = [f"{who} {n} coppe" for who, n in plays]
    fitted = fit(f"Trick 1: {', '.join(parts)} - Bot 1 (easy) takes it.")
    assert all(len(line) <= 80 for line in fitted.split("\n"))
    joined = " ".join(line.strip() for line in fitted.split("\n"))
    assert re.findall(r"(?:You|Bot \d \(\w+\)) \d coppe", joined) == parts
    for line in fitted.split("\n"):
        assert not re.search(r"\(\w+\)$|Bot \d$", line), line


def test_scala40_melds_before_opening_come_by_their_worth() -> None:
    """Before opening, every meld on the menu says what it is worth toward the 40 (and
    when it opens), the worthiest first, so a meld just taken back is not simply
    offered first again; after opening the menu is the rules' own order."""
    scala = get_game("scala40")
    renderer: Any = renderer_for("scala40")
    checked = 0
    for n in range(30):
        state = scala.new_game({}, 2, f"worth{n}".encode())
        while min(scala.to_act(state)) != 0:  # the other seat draws and discards
            seat = min(scala.to_act(state))
            legal = scala.legal_actions(state, seat)
            plain = [a for a in legal if a.kind in (ActionKind.DRAW, ActionKind.DISCARD)]
            state, _ = scala.apply(state, seat, plain[0])
        draw = next(a for a in scala.legal_actions(state, 0) if a.kind is ActionKind.DRAW)
        state, _ = scala.apply(state, 0, draw)
        legal = scala.legal_actions(state, 0)
        view = scala.view(state, 0)
        labels = [label for label, a in renderer.menu(view, legal) if a.kind is ActionKind.MELD]
        if not labels:
            continue
        worth = [int(re.search(r"\(worth (\d+)", label)[1]) for label in labels]  # type: ignore[index]
        assert worth == sorted(worth, reverse=True)
        for label, value in zip(labels, worth, strict=True):
            assert label.endswith(", opens)") == (value >= 40), label
        offered = [a for _, a in renderer.menu(view, legal)]
        assert len(offered) == len(legal) and all(a in legal for a in offered)
        checked += 1
    assert checked >= 10
