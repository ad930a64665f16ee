"""Scopone (RULES §9, SCOPONE-1…3): four players in two partnerships (seats 0+2 against
1+3), Italian deck or the French deck without jokers, 8s, 9s and 10s (PCG-9), played
anticlockwise; the player on the dealer's right goes first.

1. *Deal*: ``deal = 9+4``, 9 each and 4 face up on the table (three or more Re among
   them: a redeal **[decision]**); or ``10+0``, 10 each and an empty table. There is no
   stock: the hand is the 9 or 10 plays of each player.
2. *Captures and scoring* as Scopa 3-7 (:mod:`~tavolo.cardgames.games.fishing.scopa`): the equal
   card is compulsory, a card that can capture must, the last play scores no scopa and
   the leftovers go to the last capturer. ``fewest_cards_sum``, ``napola``, ``re_bello``.
3. *Match*: ``match_length = points:11`` (21) or ``hands:N``; ties and KO as in Scopa.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.contract import JSON, OptionSpec
from tavolo.cardgames.games.fishing.captures import SCOPA
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.match import parse_match_length
from tavolo.cardgames.games.fishing.scopa import (
    DECK,
    FEWEST_CARDS_SUM,
    NAPOLA,
    RE_BELLO,
    match_length_option,
)
from tavolo.cardgames.games.fishing.scoring import Extras
from tavolo.cardgames.games.fishing.state import FishingRules

DEALS = {"9+4": (9, 4), "10+0": (10, 0)}


class Scopone(FishingGame):
    """Scopone with the options of RULES §9."""

    name = "scopone"
    title = "Scopone"
    min_players = 4
    max_players = 4
    option_specs = (
        match_length_option("points:11", (11, 21)),
        OptionSpec(
            "deal", "9+4", "9 each and 4 on the table, or 10 each and none", ("9+4", "10+0")
        ),
        DECK,
        FEWEST_CARDS_SUM,
        NAPOLA,
        RE_BELLO,
    )

    def table_rules(self, options: Mapping[str, JSON], seats: int) -> FishingRules:
        kind, number = parse_match_length(options["match_length"])
        hand_size, table_size = DEALS[str(options["deal"])]
        return FishingRules(
            style=SCOPA,
            deck_name=str(options["deck"]),
            hand_size=hand_size,
            table_size=table_size,
            redeal_kings=table_size > 0,
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
