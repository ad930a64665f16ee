"""Scopa (RULES §8, SCOPA-1…8): 2 or 3 players, or 4 in two partnerships, Italian deck,
played anticlockwise; the player on the dealer's right goes first.

1. *Deal* 3 each and 4 face up on the table; three or more Re among them: the same dealer
   redeals.
2. *Later deals*: 3 each from the stock whenever every hand is empty (6 deals with 2
   players, 4 with 3, 3 with 4); the table never receives new cards.
3. *Captures*: the played card takes one table card of equal value, or two or more
   summing to its value (A=1, 2-7, F=8, C=9, R=10).
4. *Equal card first*: with a table card equal to the played card, exactly one such card
   must be taken and sums are illegal. ``fewest_cards_sum``: only the smallest sums.
5. *Capturing is compulsory* **[decision]** for the card played; the card is free.
6. *Scopa*: clearing the table scores 1, but not on the last play of the hand; the
   leftovers go to the last side that captured, which is no scopa.
7. *The count*: carte, denari, settebello, primiera and scope, 1 each (ties score
   nothing); options ``napola`` and ``re_bello``.
8. *Match*: ``match_length = points:11`` (16, 21, 31) or ``hands:N``; a tie at the top
   plays tie-break hands, KO after the third (RULES §0.13-14).

The engine is the fishing core (:mod:`~tavolo.cardgames.games.fishing.core`); this module
says which of its rules Scopa plays by.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.contract import JSON, OptionSpec
from tavolo.cardgames.games.fishing.captures import SCOPA
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.match import match_length_check, parse_match_length
from tavolo.cardgames.games.fishing.scoring import Extras
from tavolo.cardgames.games.fishing.state import FishingRules

ON_OFF = (False, True)


def match_length_option(default: str, targets: tuple[int, ...]) -> OptionSpec:
    return OptionSpec(
        "match_length",
        default,
        "points:T (first to T at the end of a hand) or hands:N",
        check=match_length_check(targets),
    )


FEWEST_CARDS_SUM = OptionSpec(
    "fewest_cards_sum", False, "a sum capture must use the fewest cards possible", ON_OFF
)
NAPOLA = OptionSpec(
    "napola", False, "A-2-3 of denari score 3, +1 per further denaro in a run", ON_OFF
)
DECK = OptionSpec(
    "deck",
    "italian",
    "Italian cards, or French without jokers, 8s, 9s and 10s (PCG-9)",
    ("italian", "french"),
)
RE_BELLO = OptionSpec("re_bello", False, "the Re of denari scores 1", ON_OFF)


class Scopa(FishingGame):
    """Scopa with the options of RULES §8."""

    name = "scopa"
    title = "Scopa"
    min_players = 2
    max_players = 4
    option_specs = (
        match_length_option("points:11", (11, 16, 21, 31)),
        FEWEST_CARDS_SUM,
        NAPOLA,
        RE_BELLO,
    )

    def table_rules(self, options: Mapping[str, JSON], seats: int) -> FishingRules:
        kind, number = parse_match_length(options["match_length"])
        return FishingRules(
            style=SCOPA,
            deck_name="italian",
            hand_size=3,
            table_size=4,
            redeal_kings=True,
            redeal_aces=False,
            fewest=bool(options["fewest_cards_sum"]),
            ace_sweep_scopa=False,
            extras=Extras(napola=bool(options["napola"]), re_bello=bool(options["re_bello"])),
            accusi=False,
            dealer_bonus=False,
            cappotto=False,
            match_kind=kind,
            match_number=number,
        )
