"""The terminal client's language: English or Italian, from ``--lang`` or the locale.

Every sentence the client prints goes through :func:`_` or :func:`ngettext`, bound to one
catalogue for the whole process (``locale/<lang>/LC_MESSAGES/tavolo.mo``). The compiled
catalogues are committed beside their ``.po`` files, so the client needs only the stdlib's
gettext to run; Babel (a dev dependency, ``make i18n``) extracts and compiles them, and a
test checks that what is committed is complete and current.

Strings are looked up when printed, never at import: a module constant that must be
translated is marked with :func:`N_` and passed through :func:`_` where it is used.
"""

from __future__ import annotations

import argparse
import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "tavolo"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "it")
"""The languages the client speaks; the first is the default."""

_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The locale variables, in the order POSIX lets them win over each other."""

_state: dict[str, gettext.NullTranslations | str] = {
    "catalogue": gettext.NullTranslations(),
    "language": LANGUAGES[0],
}


def language_of(tag: str | None) -> str | None:
    """``it`` for ``it_IT.UTF-8``, ``it``, ``IT``; ``None`` for a language we do not speak
    (``C``, ``POSIX``, ``de_DE``) or nothing."""
    if not tag:
        return None
    code = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is
    set decides (as POSIX has it); English when it names a language we do not speak."""
    env = os.environ if environ is None else environ
    for name in _ENV:
        if env.get(name):
            return language_of(env[name]) or LANGUAGES[0]
    return LANGUAGES[0]


def use(language: str | None) -> str:
    """Speak ``language`` from now on (``None`` or an unknown one: the locale's); returns
    the language chosen."""
    chosen = language_of(language) or language_from_env()
    _state["catalogue"] = gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen], fallback=True)
    _state["language"] = chosen
    return chosen


def language() -> str:
    """The language the client speaks now."""
    return str(_state["language"])


def _catalogue() -> gettext.NullTranslations:
    catalogue = _state["catalogue"]
    assert isinstance(catalogue, gettext.NullTranslations)
    return catalogue


def _(message: str) -> str:
    """``message`` in the client's language."""
    return _catalogue().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted phrase that fits ``n`` in the client's language."""
    return _catalogue().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as it reads in ``context`` (the same English word, two Italian ones:
    ``play`` for "you play" and for a menu choice)."""
    return _catalogue().pgettext(context, message)


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang``, on ``tavolo`` and on a sub-command alike (``tavolo play scopa --lang it``);
    ``tavolo.cli.main`` reads it before the parsers are built, so their help speaks it."""
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_("the language the client speaks (default: from LANG, else en)"),
    )


def N_(message: str) -> str:
    """Marks a constant for the catalogue without translating it now."""
    return message
