"""Nicknames (PCG-1): allowed forms, and uniqueness regardless of case and look-alikes."""

from __future__ import annotations

import pytest

from tavolo.lobby.accounts.nicknames import check_acceptable, normalise, same_nickname, skeleton
from tavolo.lobby.social.conduct.language import judge
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


VULGAR_NICKNAMES = ("Cazzo", "Stronzo", "Vaffanculo", "Coglione", "Puttana", "Merda", "Fuck")
STAFF_NICKNAMES = ("Moderatore", "admin", "Operatore", "Supporto", "Staff")


def _disguises(name: str, *, wrapped: bool = False) -> list[str]:
    """Every way a name is written to slip past: cases, digits for letters, separators,
    a trailing underscore, a look-alike Cyrillic o (kept to a nickname's 20 characters)."""
    leet = name.translate(str.maketrans({"o": "0", "a": "4", "e": "3", "i": "1"}))
    spaced = "_".join(name)
    forms = [name, name.upper(), name.lower(), leet, f"{name}_", f"_{name}", f"{name}99"]
    forms += [spaced, name.replace("o", CYRILLIC_O), name.replace("a", CYRILLIC_A)]
    if wrapped:  # staff words are reserved anywhere in a name
        forms += [f"x{name}x", f"The{name}"]
    return [f for f in forms if 3 <= len(f) <= 20]


@pytest.mark.parametrize("name", VULGAR_NICKNAMES)
def test_pcg_3_a_vulgar_nickname_is_refused_in_every_disguise(name: str) -> None:
    """PCG-3 on nicknames: the chat's filter refuses them, with a clear message."""
    for form in _disguises(name):
        with pytest.raises(InvalidArgument, match="reads as vulgar language"):
            check_acceptable(normalise(form))


@pytest.mark.parametrize("name", STAFF_NICKNAMES)
def test_pcg_3_a_staff_like_nickname_is_reserved_in_every_disguise(name: str) -> None:
    for form in _disguises(name, wrapped=True):
        with pytest.raises(InvalidArgument, match="is reserved"):
            check_acceptable(normalise(form))


@pytest.mark.parametrize(
    "name", ["Mario", "Moderna", "Scunthorpe", "Fucecchio", "Cazzago", "Cocktail", "Dickens"]
)
def test_innocent_nicknames_are_accepted(name: str) -> None:
    check_acceptable(normalise(name))


FIRST_NAMES = [
    "Alice",
    "Bob",
    "Bobby",
    "Bobo",
    "Carla",
    "Dario",
    "Elena",
    "Franco",
    "Giulia",
    "Marco",
    "Luca",
    "Paolo",
    "Anna",
    "Sara",
    "Chiara",
    "Matteo",
    "Andrea",
    "Francesco",
    "Alessandro",
    "Lorenzo",
    "Simone",
    "Davide",
    "Riccardo",
    "Federico",
    "Gabriele",
    "Tommaso",
    "Giorgio",
    "Emma",
    "Sofia",
    "Aurora",
    "Ginevra",
    "Beatrice",
    "Martina",
    "Giorgia",
    "Greta",
    "Dave",
    "Dan",
    "Ted",
    "Tom",
    "Jim",
    "Jack",
    "Nick",
    "Rick",
    "Peter",
    "Cole",
    "Coco",
    "Titti",
    "Pippo",
    "Topolino",
    "Gigi",
    "Mimi",
    "Lulu",
    "Kiki",
    "Pepe",
    "Ugo",
    "Eva",
    "Ivo",
    "Ada",
    "Olga",
    "Gina",
    "Tina",
    "Dino",
    "Nino",
    "Zoe",
    "Max",
    "Rex",
    "Bibi",
    "Toto",
    "Momo",
    "Gianni",
    "Enzo",
    "Rocco",
]


@pytest.mark.parametrize("name", FIRST_NAMES)
def test_pcg_3_common_first_names_are_not_vulgar(name: str) -> None:
    """Words that squeeze into a list entry ("boob" reads "bob") must not take a person's
    own name: the filter's squeezing is for evasions, not for names."""
    assert judge(name).found == ()
