"""The ``tavolo`` command: one entry point, one module per sub-command.

Each sub-command module exposes ``register(subparsers)``, which adds its parser and sets
``handler`` to a function taking the parsed arguments and returning an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from tavolo.cli.i18n import _, add_lang_argument, use

# Sub-command modules under tavolo.cli, by job; each one owns its arguments.
COMMAND_MODULES = (
    "platform.up",
    "play.command",
    "audit.command",
    "lobby.account",
    "lobby.watch",
    "lobby.tournament",
    "lobby.moderate",
    "lobby.rating",
    "simulate",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavolo", description=_("Tavolo card-game platform"))
    add_lang_argument(parser)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"tavolo.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"tavolo.cli.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


BROKEN_PIPE_EXIT = 141
"""128 + SIGPIPE: what a shell reports for a command whose reader went away."""


def language_asked(argv: Sequence[str]) -> str | None:
    """The ``--lang`` given anywhere on the line, read before the parsers are built, so
    their help is in that language too; ``None`` when there is none."""
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    early.add_argument("--lang")
    known, _rest = early.parse_known_args(list(argv))
    lang: str | None = known.lang
    return lang


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    use(language_asked(argv))
    try:
        args = build_parser().parse_args(argv)
        code: int = args.handler(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (`| head`) has gone: stop quietly. Point stdout at /dev/null so
        # the interpreter's own flush at exit does not fail a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_EXIT
    return code


if __name__ == "__main__":
    sys.exit(main())
