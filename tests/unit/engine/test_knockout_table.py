"""A knock-out table at the engine (PCG-7): tie-break hands in the table's own stream,
replayed and audited like every other event."""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames import Game, registry
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog.replay import audit_table, tables_by_version
from tavolo.tablelog.setup import SeatInfo, build_setup
from tests.unit.cardgames.test_knockout import AlwaysDrawnPika
from tests.unit.engine.play import SEED, play_random, recorded


@pytest.fixture
def drawn_pika(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pika whose matches and hands all end level (see test_knockout), under its own name."""
    games: dict[str, Game[Any]] = {"pika": AlwaysDrawnPika()}
    monkeypatch.setattr(registry, "all_games", lambda: games)


def ko_setup(game: str = "pika", options: dict[str, Any] | None = None) -> Any:
    return build_setup(
        table_id="t1",
        game=game,
        options=options if options is not None else {"match_length": "hands:1"},
        seats=[SeatInfo(0, "alice"), SeatInfo(1, bot=True, bot_level="easy")],
        mode="versus_computer",
        ko=True,
    )


@pytest.mark.usefixtures("drawn_pika")
async def test_pcg_7_tie_break_hands_are_recorded_in_the_stream_and_replay_exactly() -> None:
    store, table = await play_random(ko_setup(), rng_seed=4)
    events = await recorded(store)
    assert events[0].data["ko"] is True
    assert table.outcome is not None
    how = table.outcome.detail["knock_out"]
    assert how["decided_by"] == "last_capture"
    assert sorted(table.outcome.places) == [1, 2]
    produced = [e for ev in events for e in ev.data.get("events", [])]
    assert [e["number"] for e in produced if e["type"] == "tie_break_hand"] == [1, 2, 3]
    report = audit_table(events)
    assert report.ok, report.lines()
    assert list(tables_by_version(events, SEED))[-1].outcome == table.outcome


def test_pcg_7_a_table_without_ko_is_written_as_before() -> None:
    setup = build_setup(
        table_id="t1",
        game="pika",
        options={},
        seats=[SeatInfo(0, "alice"), SeatInfo(1, "bob")],
        mode="versus_friends",
    )
    assert "ko" not in setup.to_dict()


def test_pcg_7_ko_is_refused_for_a_game_without_tie_break_hands() -> None:
    with pytest.raises(InvalidArgument, match=r"Solitario \(Klondike\) does not offer knock-out"):
        build_setup(
            table_id="t1",
            game="solitario",
            options={},
            seats=[SeatInfo(s, f"p{s}") for s in range(4)],
            mode="versus_friends",
            ko=True,
        )


@pytest.mark.parametrize("game", ["briscola", "tresette"])
def test_pcg_7_a_ko_table_of_a_game_with_its_own_ko_option_names_it_on(game: str) -> None:
    """The opening event and every view echo the format played: the game's own KO on."""
    setup = build_setup(
        table_id="t1",
        game=game,
        options={"ko": False},
        seats=[SeatInfo(0, "alice"), SeatInfo(1, "bob")],
        mode="tournament",
        ko=True,
    )
    assert setup.options["ko"] is True
