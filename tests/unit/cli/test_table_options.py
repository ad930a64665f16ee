"""``--option NAME=VALUE`` (PCG-6): JSON where it reads as JSON, text otherwise."""

from __future__ import annotations

import pytest

from tavolo.cli.play.table_options import describe_options, parse_options


def test_options_read_numbers_and_booleans_as_such_and_the_rest_as_text() -> None:
    parsed = parse_options(["match_length=hands:3", "target=300", "blind_nil=true"])
    assert parsed == {"match_length": "hands:3", "target": 300, "blind_nil": True}


def test_an_option_without_a_value_is_refused_with_the_form() -> None:
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_options(["match_length"])


def test_options_are_described_in_order() -> None:
    assert describe_options({"pika_window": 3.0, "match_length": "hands:3"}) == (
        "match_length=hands:3, pika_window=3"
    )
    assert describe_options({}) == "none"
