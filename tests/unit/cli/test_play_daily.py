"""`tavolo play --daily` is Solitario's own: any other game, or a --table, is refused
before anything is called; with no login it says how to log in."""

from __future__ import annotations

import pytest

from tavolo.cli.main import main as tavolo


@pytest.mark.parametrize("args", [["pika", "--daily"], ["solitario", "--daily", "--table", "x"]])
def test_daily_is_for_solitario_alone(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert tavolo(["play", *args]) == 2
    assert "--daily is for `tavolo play solitario` alone" in capsys.readouterr().out


def test_daily_without_a_login_says_how_to_log_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    assert tavolo(["play", "solitario", "--daily"]) == 2
    assert "login" in capsys.readouterr().err
