"""Nicknames (PCG-1): allowed forms, and uniqueness regardless of case and look-alikes."""

from __future__ import annotations

import pytest

from tavolo.lobby.accounts.nicknames import normalise, same_nickname, skeleton
from tavolo.servicekit.errors import InvalidArgument

CYRILLIC_A = "\u0430"
CYRILLIC_O = "\u043e"
CYRILLIC_ER = "\u0440"
CYRILLIC_ES = "\u0441"
CYRILLIC_HA = "\u0445"
GREEK_OMICRON = "\u03bf"
FULLWIDTH_M = "\uff2d"


@pytest.mark.parametrize(
    ("taken", "attempt"),
    [
        ("Mario", "MARIO"),
        ("Mario", "mario"),
        ("Mario", f"M{CYRILLIC_A}rio"),
        ("Mario", f"Mari{CYRILLIC_O}"),
        ("Mario", f"Mari{GREEK_OMICRON}"),
        ("Mario", "Mari0"),
        ("Mario", f"{FULLWIDTH_M}ario"),
        ("poker", f"{CYRILLIC_ER}{CYRILLIC_O}ker"),
        ("coxa", f"{CYRILLIC_ES}{CYRILLIC_O}{CYRILLIC_HA}{CYRILLIC_A}"),
        ("Ilaria", "lLaria"),
        ("Ilaria", "1laria"),
        ("Ilaria", "ilaria"),
        ("modern", "modem"),
        ("vvalter", "walter"),
        ("Strasse", "Straße"),
    ],
)
def test_pcg_1_look_alikes_share_a_skeleton(taken: str, attempt: str) -> None:
    assert same_nickname(taken, normalise(attempt))


@pytest.mark.parametrize(
    ("one", "other"),
    [("Mario", "Maria"), ("José", "Jose"), ("anna_1", "anna-1"), ("Luca", "Luka")],
)
def test_pcg_1_different_nicknames_stay_different(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_the_shown_nickname_keeps_its_case_and_is_nfkc() -> None:
    assert normalise("  MarioRossi ") == "MarioRossi"
    assert normalise(f"{FULLWIDTH_M}ario") == "Mario"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "choose a nickname"),
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("mario rossi", "a space is not allowed"),
        ("mario!", "'!' is not allowed"),
        ("ma\u200brio", r"invisible character U\+200B"),
        ("___", "at least one letter"),
    ],
)
def test_pcg_1_a_malformed_nickname_is_refused_with_the_rule(raw: str, reason: str) -> None:
    with pytest.raises(InvalidArgument, match=reason):
        normalise(raw)


def test_letters_of_any_script_are_allowed() -> None:
    assert normalise("Ζωή_42") == "Ζωή_42"
