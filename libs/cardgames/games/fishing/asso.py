"""Asso Pigliatutto (RULES §10, ASSO-1…5; ``seeds/002``): 2 or 3 players, or 4 in two
partnerships **[decision for 3-4]**, Italian deck or the French deck without jokers, 8s,
9s and 10s (PCG-9), played anticlockwise.

1. *Deal* 3 each and 4 face up on the table; three or more Re among them: a redeal
   (seed). Later deals are 3 each, as in Scopa.
2. *Cards other than the ace* capture as in Scopa 3-5: the equal card first, sums
   otherwise, capturing compulsory; ``fewest_cards_sum``.
3. *The ace* (seed): with an ace on the table the played ace takes exactly one ace;
   otherwise it takes the whole table; on an empty table it is laid, taking nothing.
4. *Scopa*: a table cleared by any capture except an ace sweep scores 1
   (``ace_sweep_scopa``: the sweep scores too). An ace taking the last ace on the table
   is an ordinary scopa. No scopa on the last play; leftovers to the last capturer.
5. *Scoring and match* as Scopa 7-8: ``match_length = points:11`` (16, 21, 31)
   **[decision]** or ``hands:N``; ``napola``, ``re_bello``; ties and KO as in Scopa.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.contract import JSON, OptionSpec
from tavolo.cardgames.games.fishing.captures import ASSO
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.match import parse_match_length
from tavolo.cardgames.games.fishing.scopa import (
    DECK,
    FEWEST_CARDS_SUM,
    NAPOLA,
    ON_OFF,
    RE_BELLO,
    match_length_option,
)
from tavolo.cardgames.games.fishing.scoring import Extras
from tavolo.cardgames.games.fishing.state import FishingRules


class AssoPigliatutto(FishingGame):
    """Asso Pigliatutto with the options of RULES §10."""

    name = "asso"
    title = "Asso Pigliatutto"
    min_players = 2
    max_players = 4
    option_specs = (
        match_length_option("points:11", (11, 16, 21, 31)),
        DECK,
        OptionSpec("ace_sweep_scopa", False, "an ace sweeping the table scores a scopa", ON_OFF),
        FEWEST_CARDS_SUM,
        NAPOLA,
        RE_BELLO,
    )

    def table_rules(self, options: Mapping[str, JSON], seats: int) -> FishingRules:
        kind, number = parse_match_length(options["match_length"])
        return FishingRules(
            style=ASSO,
            deck_name=str(options["deck"]),
            hand_size=3,
            table_size=4,
            redeal_kings=True,
            redeal_aces=False,
            fewest=bool(options["fewest_cards_sum"]),
            ace_sweep_scopa=bool(options["ace_sweep_scopa"]),
            extras=Extras(napola=bool(options["napola"]), re_bello=bool(options["re_bello"])),
            accusi=False,
            dealer_bonus=False,
            cappotto=False,
            match_kind=kind,
            match_number=number,
        )
