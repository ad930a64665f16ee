"""The terminal client's catalogues: extract every message from libs/cli, update the .po
files with it, compile the .mo files (``make i18n``).

English is the language of the code, so its catalogue holds each message as its own
translation. The compiled .mo files are committed beside the .po files: the client reads
them with the stdlib's gettext, so neither an installed wheel nor the container image
needs Babel (a dev dependency), and ``make install`` + ``make test`` work on a fresh
clone without a compile step. ``tests/unit/cli/test_i18n_catalogues.py`` runs :func:`extracted` and
:func:`compiled` to check that what is committed is complete and current.

``count(n, "card", "cards")`` (tavolo.cli.play.wording) is extracted as a counted entry,
like ngettext's first two arguments; the descriptions of the games' table options, which
the rules write, are read from the registry (context ``option``).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "libs" / "cli"
LOCALE = SOURCES / "locale"
DOMAIN = "tavolo"
LANGUAGES = ("en", "it")
KEYWORDS = {**DEFAULT_KEYWORDS, "count": (2, 3)}
HEADER = (
    "# The terminal client's messages ({language}), updated from libs/cli by tools/i18n.py\n"
    "# (make i18n); compiled to tavolo.mo beside this file."
)
METHODS = [("**/locale/**", "ignore"), ("**.py", "python")]


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted() -> Catalog:
    """Every message the client's code marks, as a template catalogue."""
    template = Catalog(project="tavolo", domain=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCES), METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        template.add(
            message,
            None,
            [(f"libs/cli/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    for doc, where in option_docs().items():
        template.add(doc, None, [(where, 0)], context=OPTION)
    return template


OPTION = "option"
"""The context of a table option's description: the rules write them (``OptionSpec.doc``),
the client says them in ``tavolo play GAME --help`` and ``tavolo room games``."""


def option_docs() -> dict[str, str]:
    """Every table option's description in the rules, and the game module it is in."""
    from tavolo.cardgames.registry import get_game
    from tavolo.cli.play.renderers import RENDERERS

    docs: dict[str, str] = {}
    for name in sorted(RENDERERS):
        game = get_game(name)
        where = type(game).__module__.replace("tavolo.cardgames", "libs/cardgames", 1)
        for spec in game.option_specs:
            docs.setdefault(spec.doc, where.replace(".", "/") + ".py")
    return docs


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    """The .mo bytes of a catalogue (fuzzy entries left out, as gettext would)."""
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def update() -> None:
    """Every .po updated from the code (new messages added empty, gone ones dropped),
    then compiled beside it."""
    for language in LANGUAGES:
        template = extracted()  # update() keeps the template's entries: one each
        path = po_path(language)
        if path.exists():
            catalog = read(language)
            template.creation_date = catalog.creation_date  # no churn from a re-run
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, domain=DOMAIN, project="tavolo", fuzzy=False)
            # Italian counts as English does (1 carta, 2 carte, 1000000 carte): gettext's
            # two forms, not CLDR's third for millions.
            catalog._num_plurals, catalog._plural_expr = 2, "(n != 1)"
        catalog.update(template, no_fuzzy_matching=True)
        catalog.header_comment = HEADER.format(language=language)
        catalog.obsolete.clear()
        if language == "en":  # the source language: each message is its own translation
            for message in catalog:
                text = message.string
                strings = (text,) if isinstance(text, str) else tuple(text or ())
                if message.id and not (strings and all(strings)):
                    message.string = message.id
        with path.open("wb") as handle:
            write_po(
                handle,
                catalog,
                width=100,
                omit_header=False,
                include_previous=False,
                include_lineno=False,  # a moved line does not change the catalogue
            )
        path.with_suffix(".mo").write_bytes(compiled(read(language)))


def missing(language: str) -> list[str]:
    """The messages of the code that the language's .po lacks or leaves untranslated."""
    catalog = read(language)
    gaps = []
    for message in extracted():
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found is not None else None
        if isinstance(strings, str):
            strings = (strings,)
        if found is None or found.fuzzy or not strings or not all(strings):
            gaps.append(str(message.id))
    return gaps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="list what is missing in Italian")
    args = parser.parse_args(argv)
    if args.check:
        gaps = missing("it")
        for gap in gaps:
            print(gap)
        return 1 if gaps else 0
    update()
    return 0


if __name__ == "__main__":
    sys.exit(main())
