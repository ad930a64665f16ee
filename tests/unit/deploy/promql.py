"""The metric names and label matchers a PromQL expression refers to, read the way
Prometheus parses it: a name not followed by ``(`` and not a keyword is a metric, the
names inside ``by (...)``/``without (...)``/``on (...)`` are labels, ``{...}`` holds
label matchers of the metric before it, ``[...]`` a range."""

from __future__ import annotations

import re

KEYWORDS = frozenset(
    {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless"}
    | {"bool", "offset", "inf", "nan"}
)
_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"'  # a string
    r"|\[[^\]]*\]"  # a range or subquery
    r"|\{[^}]*\}"  # label matchers
    r"|\$\{?\w+\}?"  # a Grafana variable
    r"|[A-Za-z_:][A-Za-z0-9_:]*"  # a name
    r"|\d+(?:\.\d+)?(?:e[+-]?\d+)?"  # a number
    r"|\S"
)
_MATCHER = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"\s*,?')


def references(expr: str) -> list[tuple[str, frozenset[str]]]:
    """Every metric ``expr`` reads, with the label names its matchers use."""
    tokens = _TOKEN.findall(expr)
    found: list[tuple[str, frozenset[str]]] = []
    grouping = False
    for i, token in enumerate(tokens):
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in {"by", "without", "on", "ignoring", "group_left", "group_right"}:
            grouping = True
            continue
        if grouping:
            if token == ")":
                grouping = False
            continue
        if not re.fullmatch(r"[A-Za-z_:][A-Za-z0-9_:]*", token) or token in KEYWORDS:
            continue
        if following in {"(", "by", "without"}:
            continue  # a function or an aggregation
        labels: frozenset[str] = frozenset()
        if following.startswith("{"):
            body = following[1:-1]
            labels = frozenset(_MATCHER.findall(body))
            leftover = _MATCHER.sub("", body).strip()
            if leftover:
                raise ValueError(f"cannot read the matchers {following} in {expr!r}")
        found.append((token, labels))
    return found
