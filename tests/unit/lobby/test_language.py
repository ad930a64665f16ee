"""The chat filter (PCG-3) on disguised vulgar words and on innocent words that must pass.

The lists below are the filter's measured test list: every disguised line must be caught
and every innocent line must pass. ``test_scorecard`` prints caught / missed / false alarms.
"""

from __future__ import annotations

import pytest

from tavolo.lobby.social.conduct.language import fold, judge

DISGUISED = [
    # Italian
    "sei uno stronzo",
    "sei uno str0nz0",
    "STRONZOOOO",
    "che c.a.z.z.o fai",
    "C 4 Z Z 0",
    "caaazzzooo",
    "cazzò",
    "ma che cazzi vuoi",
    "vaffanculo",
    "v4ff4nculo",
    "sei un coglione",
    "che coglionate",
    "figlio di puttana",
    "p u t t a n a",
    "pu77ana",
    "m3rd@",
    "merdoso",
    "minchia",
    "sei una troia",
    "vai a cagare",
    "stronzi tutti",
    "bastardo",
    # English
    "fuck you",
    "fuuuuck",
    "f.u.c.k off",
    "f u c k",
    "sh1t happens",
    "$hit",
    "you b!tch",
    "a$$hole",
    "motherfucker",
    "what a d1ck",
    "cuuunt",
]

INNOCENT = [
    # Italian places with a bad substring
    "Cazzago San Martino",
    "Fucecchio",
    "Sassuolo",
    "Scandicci",
    "Cagliari",
    "Merano",
    "Culiacan",
    "Castelculier",
    "Bastia Umbra",
    # Italian words with a bad substring, and the card table's own words
    "ho fatto scopa",
    "giochiamo a scopone",
    "la regina di cuori",
    "passo",
    "assassino",
    "classe",
    "analisi",
    "la cazzuola del muratore",
    "coglie il sette bello",
    "ottima mossa, sei un figo",
    "il topo e il gatto",
    "accumulo punti",
    "stasera pesce",
    "la partita e finita",
    "complimenti!",
    # English
    "Scunthorpe",
    "Penistone",
    "Cockermouth",
    "classic game",
    "assessment",
    "cocktail",
    "therapist",
    "grape juice",
    "button",
    "Dickens",
    "well played",
    "shuttlecock",
]


def test_folding_sees_through_accents_digits_symbols_and_repeats() -> None:
    assert fold("CàÀzzzzÒ") == "cazo"
    assert fold("m3rd@") == "merda"
    assert fold("$h!t") == "shit"


@pytest.mark.parametrize("line", DISGUISED)
def test_disguised_words_are_caught(line: str) -> None:
    assert judge(line).found, f"missed: {line!r}"


@pytest.mark.parametrize("line", INNOCENT)
def test_innocent_words_pass(line: str) -> None:
    verdict = judge(line)
    assert verdict.clean, f"false alarm on {line!r}: {verdict.found}"
    assert verdict.masked == line


def test_masking_hides_only_the_vulgar_word() -> None:
    verdict = judge("bella mano, str0nz0!")
    assert verdict.masked == "bella mano, ********"
    assert verdict.found == ("str0nz0!",)


def test_separated_letters_are_masked_together() -> None:
    assert judge("ok c a z z o no").masked == "ok * * * * * no"


def test_scorecard() -> None:
    caught = sum(1 for line in DISGUISED if judge(line).found)
    alarms = [line for line in INNOCENT if judge(line).found]
    print(
        f"\nlanguage filter: caught {caught}/{len(DISGUISED)}, missed {len(DISGUISED) - caught},"
        f" false alarms {len(alarms)}/{len(INNOCENT)} {alarms}"
    )
    assert caught == len(DISGUISED)
    assert not alarms
