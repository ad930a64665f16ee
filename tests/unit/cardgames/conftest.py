"""The rules tests run twice in ``make test``: on the Python sources, then on the modules
compiled by ``tools/compile_rules.py``. The second run sets TAVOLO_EXPECT_COMPILED_RULES,
and then refuses to start on interpreted rules, so it can never quietly test the wrong
thing."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("TAVOLO_EXPECT_COMPILED_RULES") != "1":
        return
    from tools.compile_rules import interpreted

    left = interpreted()
    if left:
        raise pytest.UsageError(
            f"compiled rules expected but {', '.join(left)} are interpreted: "
            "run tools/compile_rules.py and put build/compiled first on PYTHONPATH"
        )
