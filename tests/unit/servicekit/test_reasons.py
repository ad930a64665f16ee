"""The registry of refusal reasons, its document, and every raise site naming one (API-1).

A scan of the source (``ast``) finds every construction of a domain error in services/ and
libs/ and of a rules error in libs/cardgames: a domain error must pass ``reason=`` a
registered name that comes with the error's own status (or hand on the reason of the
error it converts, ``reason=exc.reason``); a rules error may leave its class's default
(``RULE_VIOLATION``, ``NOT_YOUR_TURN`` ...) but any name it gives must be registered.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.cardgames.errors import (
    GameOver,
    InvalidOptions,
    MalformedAction,
    NotYourTurn,
    RuleError,
)
from tavolo.servicekit import errors
from tavolo.servicekit.error_details import refusal_of, rich_status, trailer
from tavolo.servicekit.reasons import DOMAIN, REASONS, RETRY_SECONDS, document

ROOT = Path(__file__).resolve().parents[3]
STATUS_OF = {
    "DomainError": grpc.StatusCode.FAILED_PRECONDITION,
    "InvalidArgument": grpc.StatusCode.INVALID_ARGUMENT,
    "NotFound": grpc.StatusCode.NOT_FOUND,
    "AlreadyExists": grpc.StatusCode.ALREADY_EXISTS,
    "FailedPrecondition": grpc.StatusCode.FAILED_PRECONDITION,
    "PermissionDenied": grpc.StatusCode.PERMISSION_DENIED,
    "Unauthenticated": grpc.StatusCode.UNAUTHENTICATED,
    "Conflict": grpc.StatusCode.ABORTED,
    "ResourceExhausted": grpc.StatusCode.RESOURCE_EXHAUSTED,
    "Unavailable": grpc.StatusCode.UNAVAILABLE,
}
RULE_STATUS = {
    "RuleError": grpc.StatusCode.FAILED_PRECONDITION,
    "NotYourTurn": grpc.StatusCode.FAILED_PRECONDITION,
    "GameOver": grpc.StatusCode.FAILED_PRECONDITION,
    "MalformedAction": grpc.StatusCode.INVALID_ARGUMENT,
    "InvalidOptions": grpc.StatusCode.INVALID_ARGUMENT,
}
UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*")


@dataclass(frozen=True)
class Site:
    where: str
    error: str
    problem: str


def _subclasses(tree: ast.Module, bases: dict[str, grpc.StatusCode]) -> dict[str, ast.ClassDef]:
    return {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id in bases for b in node.bases)
    }


def _own_status(node: ast.ClassDef) -> grpc.StatusCode | None:
    """The status a subclass sets for itself (``status = grpc.StatusCode.DATA_LOSS``)."""
    for statement in node.body:
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "status" for t in statement.targets)
            and isinstance(statement.value, ast.Attribute)
        ):
            return grpc.StatusCode[statement.value.attr]
    return None


def _reason_problem(call: ast.Call, status: grpc.StatusCode, required: bool) -> str:
    given_reason = next((k.value for k in call.keywords if k.arg == "reason"), None)
    if given_reason is None:
        return "names no reason" if required else ""
    if isinstance(given_reason, ast.Attribute) and given_reason.attr == "reason":
        return ""  # hands on the reason of the error it converts
    if not isinstance(given_reason, ast.Constant) or not isinstance(given_reason.value, str):
        return "names its reason with an expression the scan cannot check"
    known = REASONS.get(given_reason.value)
    if known is None:
        return f"names {given_reason.value!r}, which is not registered"
    if known.status != status:
        return f"names {known.name}, which comes with {known.status.name}, not {status.name}"
    return ""


def scan(source: str, where: str, rules: bool = False) -> list[Site]:
    """The raise sites of ``source`` whose reason is missing or wrong."""
    tree = ast.parse(source)
    bases = dict(RULE_STATUS if rules else STATUS_OF)
    own = _subclasses(tree, bases)
    for name, node in own.items():
        parent = next(b.id for b in node.bases if isinstance(b, ast.Name) and b.id in bases)
        bases[name] = _own_status(node) or bases[parent]
    self_named = set()
    found = []
    for name, node in own.items():
        for call in ast.walk(node):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "__init__"
            ):
                problem = _reason_problem(call, bases[name], required=not rules)
                if problem:
                    found.append(Site(f"{where}:{call.lineno}", name, problem))
                elif any(k.arg == "reason" for k in call.keywords):
                    self_named.add(name)
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in bases:
            required = not rules and call.func.id not in self_named
            problem = _reason_problem(call, bases[call.func.id], required)
            if problem:
                found.append(Site(f"{where}:{call.lineno}", call.func.id, problem))
    return found


def _sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def test_api_1_every_domain_error_raised_in_services_and_libs_names_a_registered_reason() -> None:
    found = []
    for path in _sources("services", "libs"):
        if path.name == "errors.py" and path.parent.name == "servicekit":
            continue  # the classes themselves
        found += scan(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, "\n".join(f"{s.where} {s.error} {s.problem}" for s in found)


def test_api_1_every_reason_a_rules_engine_names_is_registered() -> None:
    found = []
    for path in _sources("libs/cardgames", "libs/tablelog", "services"):
        if path.name == "errors.py" and path.parent.name == "cardgames":
            continue
        found += scan(path.read_text(), str(path.relative_to(ROOT)), rules=True)
    assert not found, "\n".join(f"{s.where} {s.error} {s.problem}" for s in found)


def test_api_1_the_rules_engines_name_specific_reasons_not_only_the_generic_one() -> None:
    named = set()
    for path in _sources("libs/cardgames"):
        for node in ast.walk(ast.parse(path.read_text())):
            is_named = isinstance(node, ast.keyword) and node.arg == "reason"
            if is_named and isinstance(node.value, ast.Constant):
                named.add(node.value.value)
    assert {"CARD_NOT_HELD", "MUST_FOLLOW_SUIT", "CAPTURE_COMPULSORY", "OPTION_INVALID"} <= named


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("raise NotFound('no table')", "names no reason"),
        ("raise NotFound('no table', reason='NO_SUCH_THING')", "not registered"),
        ("raise NotFound('no table', reason='NICKNAME_TAKEN')", "comes with ALREADY_EXISTS"),
        (
            "class Gone(NotFound):\n    def __init__(self):\n        super().__init__('gone')\n",
            "names no reason",
        ),
    ],
)
def test_api_1_the_scan_finds_a_raise_site_without_a_good_reason(source: str, problem: str) -> None:
    found = scan(source, "example.py")
    assert len(found) == 1 and problem in found[0].problem


def test_api_1_the_scan_accepts_a_named_site_and_a_self_named_subclass() -> None:
    source = (
        "raise NotFound('no table', reason='TABLE_NOT_FOUND', metadata={'table_id': t})\n"
        "class Short(FailedPrecondition):\n"
        "    def __init__(self):\n"
        "        super().__init__('short', reason='INSUFFICIENT_COINS')\n"
        "raise Short()\n"
        "raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata)\n"
    )
    assert scan(source, "example.py") == []


def test_api_1_reasons_are_upper_snake_case_with_a_meaning_and_snake_case_keys() -> None:
    for name, reason in REASONS.items():
        assert UPPER_SNAKE.fullmatch(name), name
        assert reason.meaning and reason.area, name
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", key) for key in reason.metadata), name
    assert set(RETRY_SECONDS) <= set(REASONS)
    assert all(REASONS[name].status.name in {"UNAVAILABLE", "ABORTED"} for name in RETRY_SECONDS)


def test_api_1_docs_errors_md_is_what_the_registry_generates() -> None:
    """Regenerate with `python -m tavolo.servicekit.reasons > docs/errors.md`."""
    assert (ROOT / "docs" / "errors.md").read_text() == document()
    assert "docs/errors.md" in (ROOT / "README.md").read_text()


def test_api_1_the_rules_errors_default_to_their_class_reason() -> None:
    assert RuleError("no").reason == "RULE_VIOLATION"
    assert NotYourTurn("no").reason == "NOT_YOUR_TURN"
    assert GameOver("no").reason == "GAME_OVER"
    assert MalformedAction("no").reason == "ACTION_MALFORMED"
    assert InvalidOptions("no").reason == "OPTION_INVALID"
    named = RuleError("no", reason="CARD_NOT_HELD", metadata={"card": "AS", "seats": (1, 2)})
    assert (named.reason, named.metadata) == ("CARD_NOT_HELD", {"card": "AS", "seats": "1,2"})


metadata_values = st.dictionaries(
    st.from_regex(r"[a-z_]{1,12}", fullmatch=True), st.text(max_size=30), max_size=4
)


@given(
    name=st.sampled_from(sorted(REASONS)),
    message=st.text(max_size=60),
    metadata=metadata_values,
)
def test_api_1_every_reason_survives_the_trailer_with_its_details(
    name: str, message: str, metadata: dict[str, str]
) -> None:
    """Each registered reason, sent as the server sends it, reads back the same; a field
    refusal adds a BadRequest, a retryable one a RetryInfo."""
    reason = REASONS[name]
    status = rich_status(reason.status, message, name, metadata)
    refusal = refusal_of(trailer(status))
    assert refusal is not None
    assert (refusal.reason, refusal.domain, dict(refusal.metadata)) == (name, DOMAIN, metadata)
    assert status.code == reason.status.value[0] and status.message == message
    has_field = reason.status is grpc.StatusCode.INVALID_ARGUMENT and bool(metadata.get("field"))
    assert refusal.fields == ({metadata["field"]: message} if has_field else {})
    assert refusal.retry_after == RETRY_SECONDS.get(name)


def test_api_1_domain_error_metadata_is_text_and_lists_are_joined() -> None:
    error = errors.InvalidArgument("bad", reason="STAKE_INVALID", metadata={"allowed": [10, 50]})
    assert (error.reason, error.metadata) == ("STAKE_INVALID", {"allowed": "10,50"})
    assert errors.NotFound("plain").reason is None
