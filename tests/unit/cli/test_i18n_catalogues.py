"""The terminal client's catalogues are complete and current (I18N-1, the client in Italian
and English): every message the code marks is translated in it.po and present in en.po,
nothing stale is left, each translation keeps its message's placeholders, counted
messages take Italian's two forms, and the committed .mo files are what the .po files
compile to (the client reads the .mo files with the stdlib alone)."""

from __future__ import annotations

import gettext
import io
import re
import string

import pytest

from tavolo.cli.i18n import LANGUAGES, LOCALE_DIR, ngettext, use
from tavolo.cli.play.wording import count, ordinal
from tools import i18n as catalogues

FIELD = re.compile(r"\{([a-z_]*)\}")


def _ids(message: object) -> tuple[str, ...]:
    ident = message.id  # type: ignore[attr-defined]
    return (ident,) if isinstance(ident, str) else tuple(ident)


def _strings(message: object) -> tuple[str, ...]:
    text = message.string  # type: ignore[attr-defined]
    return (text,) if isinstance(text, str) else tuple(text)


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated(language: str) -> None:
    """Every msgid extracted from libs/cli has a non-empty, non-fuzzy msgstr."""
    assert catalogues.missing(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_left_that_the_code_no_longer_says(language: str) -> None:
    extracted = {(m.context, _ids(m)[0]) for m in catalogues.extracted() if m.id}
    committed = {(m.context, _ids(m)[0]) for m in catalogues.read(language) if m.id}
    assert sorted(committed - extracted, key=str) == []
    assert not catalogues.read(language).obsolete


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_its_placeholders(language: str) -> None:
    """``{card}`` in the English is ``{card}`` in the Italian: every field of the msgid
    (every form, for a counted message) and no other, so ``format`` never fails."""
    for message in catalogues.read(language):
        if not message.id:
            continue
        wanted = set().union(*(_fields(i) for i in _ids(message)))
        for text in _strings(message):
            assert _fields(text) <= wanted, (message.id, text)
            if len(_ids(message)) == 1:
                assert _fields(text) == wanted, (message.id, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_what_the_po_compiles_to(language: str) -> None:
    path = LOCALE_DIR / language / "LC_MESSAGES" / "tavolo.mo"
    with path.open("rb") as handle:
        committed = gettext.GNUTranslations(handle)
    fresh = gettext.GNUTranslations(io.BytesIO(catalogues.compiled(catalogues.read(language))))
    assert committed._catalog == fresh._catalog  # type: ignore[attr-defined]


def test_italian_counts_one_and_many() -> None:
    """Every counted message in Italian: its singular for 1 alone, its plural for 0, 2,
    3 ... (two forms, as in English), and each form translated."""
    catalog = catalogues.read("it")
    assert catalog.num_plurals == 2
    use("it")
    counted = [m for m in catalog if m.id and not isinstance(m.id, str)]
    assert counted
    for message in counted:
        singular, plural = message.id
        one, many = message.string
        for n in range(0, 25):
            assert ngettext(singular, plural, n) == (one if n == 1 else many)
    assert [count(n, "card", "cards") for n in (0, 1, 2)] == ["0 carte", "1 carta", "2 carte"]
    assert [count(n, "trick", "tricks") for n in (1, 3)] == ["1 presa", "3 prese"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21)] == ["1º", "2º", "3º", "4º", "11º", "21º"]
    use("en")
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 21, 112)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "21st",
        "112th",
    ]


def test_the_english_catalogue_says_what_the_code_says() -> None:
    """English is the code's own language: each entry is its own translation."""
    for message in catalogues.read("en"):
        if message.id:
            assert _strings(message) == _ids(message), message.id
