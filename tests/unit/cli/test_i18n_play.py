"""``tavolo play`` in Italian (I18N-1, MODE-1): every game played to its end in Italian
within 80 columns and without an English sentence; the language chosen by ``--lang``
(on ``tavolo`` or on ``tavolo play``) or by the locale, English otherwise."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tavolo.cli.i18n import language, language_from_env, language_of, use
from tavolo.cli.main import language_asked, main
from tavolo.cli.play.renderers import RENDERERS, arrangement

from .play_script import Player, play_game

ALL_GAMES = sorted(RENDERERS)

ENGLISH = re.compile(
    r"\b(the|your|you|trick|tricks|takes?|waiting|stock|cards?|points?|hands?|with|and|of|"
    r"is|are|from|turn|choice|final|places|nobody|wins?|draws?|plays?|passes|deals?|over|"
    r"bids?|bags?|chips?|pot|left|table|match|score|scores|pair|high|joker|king|queen|"
    r"jack|aces?|three|four|two|none|empty|then|clockwise|anticlockwise|red|yellow|"
    r"green|blue|wild|skip|reverse)\b",
    re.IGNORECASE,
)
"""English words a screen would show if a sentence were left untranslated. The Italian
game terms (scopa, settebello, primiera, carichi, pozzo, pozzetto, burraco, servito,
busso, Round, Boston, nil) are the same in both languages and are not in the list."""

ALLOWED = ("Cuori (Hearts)", "Picche (Spades)")
"""The two titles that keep their English names beside the Italian ones."""


@pytest.fixture(scope="module")
def italian_screens() -> Iterator[dict[str, str]]:
    """One whole game of each of the 17 in Italian, played by a random player."""
    use("it")
    played = {}
    try:
        for game in ALL_GAMES:
            code, text = play_game(game, f"screen-{game}")
            assert code == 0, f"{game} did not finish:\n{text[-2000:]}"
            played[game] = text
    finally:
        use("en")
    yield played


def test_i18n_1_every_game_plays_to_its_end_in_italian_within_80_columns(
    italian_screens: dict[str, str],
) -> None:
    """MODE-1 in Italian: each of the 17 ends with its final places ("Classifica
    finale"), and no line of any screen is wider than 80 columns."""
    assert set(italian_screens) == set(ALL_GAMES) and len(italian_screens) == 17
    for game, text in italian_screens.items():
        assert "--- Classifica finale" in text, game
        assert "La tua scelta (numero;" in text, game
        wide = [line for line in text.splitlines() if len(line) > 80]
        assert not wide, f"{game}: {wide[:3]}"


def test_i18n_1_no_english_sentence_on_an_italian_screen(italian_screens: dict[str, str]) -> None:
    """Every line of every Italian screen, the seed and option values aside: none holds
    an English word from :data:`ENGLISH`."""
    for game, text in italian_screens.items():
        for line in text.splitlines():
            checked = line
            for allowed in ALLOWED:
                checked = checked.replace(allowed, "")
            checked = re.sub(r"screen-[a-z0-9]+", "", checked)  # the seed
            found = ENGLISH.findall(checked)
            assert not found, f"{game}: {found} in {line!r}"


ONE_PLURAL = re.compile(
    r"(?<![A-Za-z] )(?<![\d.])\b1 (carte|prese|punti|smazzate|assi|terzi|sovrapprese|altri giri)\b"
)
MANY_SINGULAR = re.compile(
    r"(?<![A-Za-z] )(?<![\d.])\b(?:0|[2-9]|\d{2,}) (carta|presa|punto|smazzata|asso|terzo|"
    r"sovrappresa|altro giro)\b"
)


def test_i18n_1_counts_agree_in_italian(italian_screens: dict[str, str]) -> None:
    """No "1 carte", "2 carta", "1 prese", "3 punto" on any Italian screen: each counted
    thing takes its singular for one and its plural otherwise, as the English screens
    say "1 trick" and "2 tricks"."""
    for game, text in italian_screens.items():
        assert not ONE_PLURAL.findall(text), (game, ONE_PLURAL.findall(text)[:3])
        assert not MANY_SINGULAR.findall(text), (game, MANY_SINGULAR.findall(text)[:3])


def test_i18n_1_the_italian_scopa_uses_the_seeds_terms(italian_screens: dict[str, str]) -> None:
    text = italian_screens["scopa"]
    for term in ("Smazzata 1", "prende", "In tavola:", "La tua mano:", "Mazzo:", "primiera"):
        assert term in text, term
    assert re.search(r"\b1 carta\b|\b[02-9]\d* carte\b", text)
    assert not re.search(r"\b1 carte\b|\b(?:[02-9]|\d\d+) carta\b", text)


def test_english_screens_stay_english() -> None:
    """The same game in English (the default): English words, no Italian sentence."""
    code, text = play_game("scopa", "screen-scopa")
    assert code == 0 and "--- Final places" in text and "Your choice (number;" in text
    assert "Smazzata" not in text and "La tua" not in text


# -- choosing the language -------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("it_IT.UTF-8", "it"),
        ("it_CH.UTF-8", "it"),
        ("it", "it"),
        ("IT", "it"),
        ("it_IT@euro", "it"),
        ("en_GB.UTF-8", "en"),
        ("en", "en"),
        ("C", None),
        ("C.UTF-8", None),
        ("POSIX", None),
        ("de_DE.UTF-8", None),
        ("", None),
    ],
)
def test_a_locale_names_its_language(tag: str, expected: str | None) -> None:
    assert language_of(tag) == expected


def test_the_locale_variables_win_in_posix_order() -> None:
    """LC_ALL over LC_MESSAGES over LANG; the first one set decides, English when it
    names a language the client does not speak; every combination drawn."""
    values = [None, "it_IT.UTF-8", "en_US.UTF-8", "C", "fr_FR.UTF-8"]
    for lc_all in values:
        for lc_messages in values:
            for lang in values:
                env = {
                    k: v
                    for k, v in (("LC_ALL", lc_all), ("LC_MESSAGES", lc_messages), ("LANG", lang))
                    if v is not None
                }
                first = next((v for v in (lc_all, lc_messages, lang) if v), None)
                expected = "it" if first == "it_IT.UTF-8" else "en"
                assert language_from_env(env) == expected, env


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["play", "scopa", "--lang", "it"], "it"),
        (["--lang", "it", "play", "scopa"], "it"),
        (["play", "scopa", "--lang=it"], "it"),
        (["play", "scopa"], None),
        (["--lang", "en", "play", "scopa"], "en"),
    ],
)
def test_lang_is_read_wherever_it_stands(argv: list[str], expected: str | None) -> None:
    assert language_asked(argv) == expected


def _first_screen(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What ``tavolo ARGV`` prints before its first prompt (the player then leaves)."""
    prompts: list[str] = []

    def leave(prompt: str = "") -> str:
        prompts.append(prompt)
        raise EOFError

    monkeypatch.setattr("builtins.input", leave)
    assert main(argv) == 1
    return capsys.readouterr().out + "".join(prompts)


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "scopa", "--lang", "it", "--seed", "lingua"],
        ["--lang", "it", "play", "scopa", "--seed", "lingua"],
    ],
)
def test_i18n_1_lang_it_gives_italian(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _first_screen(argv, monkeypatch, capsys)
    assert "Smazzata 1" in out and "La tua mano:" in out and "La tua scelta (numero;" in out
    assert "Hai lasciato il tavolo." in out
    assert language() == "it"


def test_i18n_1_lang_beats_the_locale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    out = _first_screen(["play", "scopa", "--lang", "en", "--seed", "x"], monkeypatch, capsys)
    assert "Your hand:" in out and "La tua" not in out


def test_i18n_1_lang_it_locale_gives_italian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    out = _first_screen(["play", "scopa", "--seed", "lingua"], monkeypatch, capsys)
    assert "Smazzata 1" in out and "La tua scelta (numero;" in out
    monkeypatch.setenv("LANG", "C.UTF-8")
    out = _first_screen(["play", "scopa", "--seed", "lingua"], monkeypatch, capsys)
    assert "Hand 1" in out and "Your choice (number;" in out


def test_i18n_1_the_installed_command_speaks_italian_under_an_italian_locale() -> None:
    """``LANG=it_IT.UTF-8 tavolo play scopa`` as a shell runs it: a process of its own
    reading the locale, stdin closed at once (the player leaves at the first prompt)."""
    env = {**os.environ, "LANG": "it_IT.UTF-8"}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    done = subprocess.run(
        [sys.executable, "-m", "tavolo.cli", "play", "scopa", "--seed", "lingua"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Smazzata 1" in done.stdout and "Hai lasciato il tavolo." in done.stdout


def test_i18n_1_the_help_is_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--lang", "it", "--help"])
    out = capsys.readouterr().out
    assert "gioca una partita" in out.lower() or "Gioca una partita" in out
    assert "quale gioco" in out


def test_i18n_1_the_typed_commands_read_in_both_languages() -> None:
    """The prompt offers 'ordina', 'sposta I J', 'cambia 1 4' and 'esci' in Italian; the
    English words keep working there too, every combination drawn."""
    hand = ("9", "3", "7", "1")
    for lang in ("en", "it"):
        use(lang)
        for word in ("sort", "ordina"):
            expected = tuple(sorted(hand)) if lang == "it" or word == "sort" else None
            assert arrangement(hand, word, str) == expected, (lang, word)
        for word in ("move", "sposta"):
            for i in range(1, 5):
                for j in range(1, 5):
                    moved = arrangement(hand, f"{word} {i} {j}", str)
                    if lang == "en" and word == "sposta":
                        assert moved is None
                        continue
                    cards = list(hand)
                    cards.insert(j - 1, cards.pop(i - 1))
                    assert moved == tuple(cards), (lang, word, i, j)
    use("it")
    code, text = play_game("pika", "ordina", player=_typing("ordina"))
    assert code == 0 and "'ordina', 'sposta I J', 'esci'" in text
    assert "non è una scelta" not in text  # 'ordina' arranged the hand


def _typing(first: str) -> Player:
    player = Player("ordina")
    player.script = [first]
    return player
