"""``tavolo tournament watch`` draws the bracket and points a player at their table (PCG-7)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tavolo.cli import main
from tavolo.cli.lobby.tournament import bracket_lines, create_request, next_table, parse_split
from tavolo.lobby.tournaments import stream as S
from tavolo.lobby.tournaments.convert import tournament
from tavolo.v1 import lobby_pb2

OPENS = datetime(2026, 12, 1, 18, tzinfo=UTC)
STARTS = OPENS + timedelta(hours=1)
SEED = b"the draw's seed"
SPEC = S.TournamentSpec("scopa", {}, 8, OPENS, STARTS, 100, (70, 30), "bot")


def drawn(entrants: int) -> S.Tournament:
    events = [S.create("t1", SPEC, SEED)]
    for i in range(entrants):
        t = S.rebuild("t1", events)
        events.append(S.register(t, f"p{i}", OPENS, f"Player{i}"))
    events.append(S.start(S.rebuild("t1", events), SEED, STARTS))
    return S.rebuild("t1", events)


def test_pcg_7_the_bracket_marks_my_match_and_shows_byes_and_the_seed() -> None:
    t = drawn(5)  # 8 slots: three byes walk over into round two
    assert t.bracket is not None
    me = next(m.a for m in t.bracket.rounds[0] if m.b is not None)
    assert me is not None
    lines = bracket_lines(tournament(t), me)
    assert lines[1] == f"draw seed: {SEED.hex()} (sha256 {t.commitment})"
    assert sum(1 for line in lines if line.endswith("(bye)")) == 3  # walked over
    mine = [line for line in lines if line.startswith(" > ")]
    assert mine and t.names[me] in mine[0]
    assert next_table(tournament(t), me) is None  # no table opened yet


def test_pcg_7_a_player_is_pointed_at_their_open_table_and_the_winner_is_shown() -> None:
    t = drawn(4)
    assert t.bracket is not None
    first = t.bracket.rounds[0][0]
    assert first.a is not None and first.b is not None
    t = S.apply(t, *S.open_match(t, 0, 0, "table-1", (first.b,)))
    shown = tournament(t)
    found = next_table(shown, first.a)
    assert found is not None and found.table_id == "table-1"
    assert next_table(shown, first.b) is None  # a bot plays the no-show's seat
    assert any(
        "(bot)" in line and "playing at table table-1" in line for line in bracket_lines(shown)
    )
    for event in S.decide_match(t, "table-1", first.a, "last_capture"):
        t = S.apply(t, *event)
    assert any("(last capture)" in line for line in bracket_lines(tournament(t)))


def test_pcg_7_the_tournament_commands_parse() -> None:
    parser = main.build_parser()
    args = parser.parse_args(["tournament", "watch", "t1", "--as", "Anna"])
    assert (args.tournament_id, args.as_nick) == ("t1", "Anna")
    assert parser.parse_args(["tournament", "list"]).action == "list"


def test_pcg_7_operators_create_and_cancel_tournaments_from_the_terminal() -> None:
    parser = main.build_parser()
    args = parser.parse_args(
        [
            "tournament", "create", "briscola", "--option", "match_length=hands:3",
            "--max", "8", "--fee", "100", "--split", "60/30/10", "--starts-in", "5",
            "--no-show", "forfeit", "--as", "Direttore",
        ]
    )  # fmt: skip
    now = datetime(2026, 12, 5, 3, tzinfo=UTC)
    asked = create_request(args, now)
    assert (asked.game, asked.max_entrants, asked.fee) == ("briscola", 8, 100)
    assert list(asked.split) == [60, 30, 10]
    assert asked.starts_at.ToDatetime(UTC) == now + timedelta(minutes=5)
    assert asked.no_show == lobby_pb2.NO_SHOW_FORFEIT
    assert dict(asked.options) == {"match_length": "hands:3"}
    cancel = parser.parse_args(["tournament", "cancel", "t1", "--reason", "venue closed"])
    assert (cancel.tournament_id, cancel.reason) == ("t1", "venue closed")
    assert parse_split("100") == [100]
