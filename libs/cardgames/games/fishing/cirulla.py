"""Cirulla (RULES §11, CIRULLA-1…10): 2 or 3 players, or 4 in two partnerships, with the
Genoese 40-card deck (French suits, A-7 and J, Q, K worth 1-10; quadri are the denari),
played anticlockwise like the other games **[decision]**.

1. *Deal* 3 each and 4 face up on the table; two or more aces among them: a redeal.
   Later deals are 3 each.
2. *Dealer's bonus*: the dealer's side starts as the last capturer **[decision]**; an
   opening table adding up to 15 is the dealer's capture and 1 scopa, 30 is 2 scope
   (the matta counts 7 here **[decision]**).
3. *Captures*: a card of value v (not an ace) takes (a) one table card worth v, (b) two
   or more summing to v only when no card is worth v, or (c) one or more summing to
   15 - v. A card that can capture must **[decision]**; the player picks which capture.
4. *The ace*: with an ace on the table it takes one ace; otherwise the whole table,
   which is a scopa; on an empty table it is laid.
5. *Scopa*: clearing the table scores 1, except on the last play (an ace sweep included
   **[decision]**); leftovers go to the last capturer.
6. *Accusi*: on their turn, holding the 3 cards just dealt, a player may declare
   ``CALL(call="cirulla")`` (the three total 9 or less: 3 points) or ``"decino"`` (three
   of a rank: 10), once per deal, the decino first; the hand is then shown to all for
   the rest of the deal (:mod:`~tavolo.cardgames.games.fishing.accusi`).
7. *Matta*: the 7 of cuori takes any value 1-10 for accusi only; in play it is a 7.
8. *The count*: carte, denari, settebello (7♦), primiera as in Scopa; *grande* (J, Q, K
   of quadri) 5; *piccola* (A, 2, 3 of quadri) 3, +1 each for 4, 5, 6 in a run; scope
   and accusi.
9. *Cappotto*: capturing all ten denari ends the match at once, that side first; the
   hand is not scored and the others are placed by their totals before it. It ends a
   ``hands:N`` match too.
10. *Match*: ``match_length = points:51`` or ``hands:N``; the highest total wins; a tie
    plays another hand (tie-break hands and KO as in Scopa).
"""

from __future__ import annotations

from collections.abc import Mapping

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.fishing.captures import CIRULLA
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.match import parse_match_length
from tavolo.cardgames.games.fishing.scopa import match_length_option
from tavolo.cardgames.games.fishing.scoring import Extras
from tavolo.cardgames.games.fishing.state import FishingRules


class Cirulla(FishingGame):
    """Cirulla as RULES §11 plays it; it takes none of Scopa's optional lines."""

    name = "cirulla"
    title = "Cirulla"
    min_players = 2
    max_players = 4
    option_specs = (match_length_option("points:51", (51,)),)

    def table_rules(self, options: Mapping[str, JSON], seats: int) -> FishingRules:
        kind, number = parse_match_length(options["match_length"])
        return FishingRules(
            style=CIRULLA,
            deck_name="french",
            hand_size=3,
            table_size=4,
            redeal_kings=False,
            redeal_aces=True,
            fewest=False,
            ace_sweep_scopa=True,
            extras=Extras(grande_piccola=True),
            accusi=True,
            dealer_bonus=True,
            cappotto=True,
            match_kind=kind,
            match_number=number,
        )
