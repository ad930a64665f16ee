"""The other commands in Italian (I18N-1): every lobby update ``tavolo lobby watch``
prints, in each state, a tournament's bracket and the commands' help say nothing in
English but the commands to type and the names the lobby sent."""

from __future__ import annotations

import re
import textwrap

import pytest

from tavolo.cardgames.registry import get_game
from tavolo.cli.i18n import pgettext, use
from tavolo.cli.lobby.tournament import bracket_lines
from tavolo.cli.lobby.watch import TICKETS, describe
from tavolo.cli.main import main
from tavolo.cli.play.game_help import game_help
from tavolo.cli.play.renderers import RENDERERS
from tavolo.cli.session import SavedSession
from tavolo.lobby.tournaments import stream as S
from tavolo.lobby.tournaments.convert import tournament
from tavolo.v1 import lobby_pb2

from .test_i18n_play import ENGLISH
from .test_tournament_bracket import drawn

MARCO = SavedSession("p-marco", "Marco", "access", "refresh")
COMMAND = re.compile(r"`[^`]*`")
"""What the player types stays as it is: ``tavolo room accept R1 --as Marco``."""

INVITATION_STATES = [
    lobby_pb2.INVITATION_STATE_PENDING,
    lobby_pb2.INVITATION_STATE_ACCEPTED,
    lobby_pb2.INVITATION_STATE_DECLINED,
    lobby_pb2.INVITATION_STATE_UNSPECIFIED,
]


def _updates() -> list[lobby_pb2.LobbyUpdate]:
    """Every kind of update in every state: invitations to the player and the player's
    own, tickets with and without a stake and a table, a seat."""
    found = []
    for state in INVITATION_STATES:
        for player in ("p-marco", "p-lucia"):
            found.append(
                lobby_pb2.LobbyUpdate(
                    invitation=lobby_pb2.Invitation(
                        room_id="R1",
                        player_id=player,
                        nickname="Lucia" if player == "p-lucia" else "Marco",
                        state=state,
                        host_nickname="Giulia",
                        game="pika",
                    )
                )
            )
    for state in [*TICKETS, lobby_pb2.TICKET_STATE_UNSPECIFIED]:
        for stake, table in ((0, ""), (50, "T9")):
            ticket = lobby_pb2.Ticket(
                ticket_id="K1", game="scopa", players=2, stake=stake, table_id=table, state=state
            )
            found.append(lobby_pb2.LobbyUpdate(ticket=ticket))
    found.append(
        lobby_pb2.LobbyUpdate(seated=lobby_pb2.TableAssignment(table_id="T1", seat=1, game="pika"))
    )
    found.append(lobby_pb2.LobbyUpdate())
    return found


def test_i18n_1_every_lobby_update_reads_in_italian() -> None:
    english = [describe(update, MARCO) for update in _updates()]
    use("it")
    for update, before in zip(_updates(), english, strict=True):
        line = describe(update, MARCO)
        assert line != before, before
        said = COMMAND.sub("", line).replace("Giulia", "").replace("Marco", "")
        assert not ENGLISH.findall(said), (line, ENGLISH.findall(said))


@pytest.mark.parametrize(
    ("argv", "italian"),
    [
        (["--lang", "it", "--help"], "la lingua del client"),
        (["--lang", "it", "account", "--help"], "crea un account"),
        (["--lang", "it", "room", "--help"], "crea una sala"),
        (["--lang", "it", "coins", "--help"], "monete disponibili"),
        (["--lang", "it", "lobby", "--help"], "mostra inviti"),
    ],
)
def test_i18n_1_the_commands_help_in_italian(
    argv: list[str], italian: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(argv)
    assert italian in capsys.readouterr().out


def test_i18n_1_a_bracket_reads_in_italian() -> None:
    """``tavolo tournament watch`` in Italian: the drawn bracket with its byes, an open
    table with a bot standing in, and a decided match."""
    t = drawn(5)
    assert t.bracket is not None
    index, first = next(
        (i, m) for i, m in enumerate(t.bracket.rounds[0]) if m.a is not None and m.b is not None
    )
    assert first.a is not None and first.b is not None
    t = S.apply(t, *S.open_match(t, 0, index, "table-1", (first.b,)))
    states = [tournament(t)]
    for event in S.decide_match(t, "table-1", first.a, "last_capture"):
        t = S.apply(t, *event)
    states.append(tournament(t))
    use("it")
    for shown in states:
        lines = bracket_lines(shown)
        assert any("turno libero" in line for line in lines)
        for line in lines:
            said = re.sub(r"Player\d|\(bot\)|[0-9a-f]{64}|table-1", "", line)
            assert not ENGLISH.findall(said), (line, ENGLISH.findall(said))
    assert any("ultima presa" in line for line in bracket_lines(states[1]))


@pytest.mark.parametrize("game_name", sorted(RENDERERS))
def test_i18n_1_a_games_own_help_reads_in_italian(game_name: str) -> None:
    """``tavolo play GAME --help`` in Italian: every option's description (the rules
    write them in English) comes from the catalogue."""
    specs = get_game(game_name).option_specs
    english = game_help(game_name)
    use("it")
    italian = game_help(game_name)
    assert italian != english
    for spec in specs:
        said = pgettext("option", spec.doc)
        assert said != spec.doc, spec.doc
        assert textwrap.wrap(said, 72)[0] in italian
