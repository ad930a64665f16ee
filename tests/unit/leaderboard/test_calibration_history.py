"""The bots' calibrations as a history (RATE-1): a recalibration is added, in force from a
time to come, and never replaces the levels past tables were rated with."""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path

import pytest

from tools import calibrate_bot_ratings as tool

ONE = {"levels": {"random": 16.5, "easy": 20.0, "medium": 22.0, "hard": 24.0}}
TWO = {"levels": {"random": 16.5, "easy": 21.0, "medium": 23.0, "hard": 26.0}}
JAN = dt.datetime(2027, 1, 1, tzinfo=dt.UTC)


def test_rate_1_the_first_calibration_holds_from_the_start_the_next_from_its_time() -> None:
    history = tool.merged({}, {"pika": ONE}, JAN)
    assert history == {"pika": [{**ONE, "in_force_from": None}]}
    later = tool.merged(history, {"pika": TWO, "uno": ONE}, JAN + dt.timedelta(days=30))
    assert later["pika"] == [
        {**ONE, "in_force_from": None},
        {**TWO, "in_force_from": "2027-01-31T00:00:00+00:00"},
    ]
    assert later["uno"] == [{**ONE, "in_force_from": None}]
    assert history["pika"] == [{**ONE, "in_force_from": None}]  # the old one untouched


def test_rate_1_a_calibration_cannot_come_into_force_before_the_last_one() -> None:
    history = tool.merged(tool.merged({}, {"pika": ONE}, JAN), {"pika": TWO}, JAN)
    with pytest.raises(ValueError, match="already in force"):
        tool.merged(history, {"pika": ONE}, JAN)


def test_rate_1_the_default_time_is_the_next_midnight_utc() -> None:
    now = dt.datetime(2026, 12, 5, 23, 59, tzinfo=dt.UTC)
    assert tool.next_midnight(now) == dt.datetime(2026, 12, 6, tzinfo=dt.UTC)
    rome = dt.timezone(dt.timedelta(hours=1))
    assert tool.next_midnight(dt.datetime(2026, 12, 6, 0, 30, tzinfo=rome)) == dt.datetime(
        2026, 12, 6, tzinfo=dt.UTC
    )


def test_rate_1_the_written_module_reads_back_as_the_history(tmp_path: Path) -> None:
    history = tool.merged(tool.merged({}, {"pika": ONE}, JAN), {"pika": TWO}, JAN)
    out = tmp_path / "bot_levels.py"
    out.write_text(tool.render(history))
    assert tool._previous(out) == history
    spec = importlib.util.spec_from_file_location("written_bot_levels", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    levels = module.BOT_LEVELS
    assert levels == {"pika": TWO["levels"]}


def test_rate_1_the_tool_refuses_a_time_in_the_past(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["calibrate", "pika", "--in-force-from", "2020-01-01T00:00:00+00:00"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.argv", argv)
        with pytest.raises(SystemExit) as stopped:
            tool.main()
    assert stopped.value.code == 2
    assert "must lie in the future" in capsys.readouterr().err
