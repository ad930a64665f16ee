"""A refused move in the player's language, from the refusal's reason and metadata, never
from the server's English (API-1, I18N-1); a reason the client does not know yet shows
the server's message as it came."""

from __future__ import annotations

import string

import grpc
import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.registry import get_game
from tavolo.cli.i18n import LANGUAGES, _, use
from tavolo.cli.play.refusals import (
    MESSAGES,
    WITH_MESSAGE,
    WITHOUT_VALUES,
    refusal_text,
    rpc_refusal_text,
    rule_error_text,
)
from tavolo.cli.play.remote import refused as said
from tavolo.cli.play.renderers import RENDERERS
from tavolo.servicekit.error_details import rich_status, trailer
from tavolo.servicekit.reasons import REASONS

RULES_AREA = "Rules of the games"
SERVER = "the server's own words"


def _fields(text: str) -> list[str]:
    return [name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name]


def _values(keys: tuple[str, ...]) -> dict[str, str]:
    return {key: f"<{key}>" for key in keys}


def test_every_reason_of_the_rules_has_the_clients_words() -> None:
    """Each reason of the registry's rules area, and every reason the client words, is a
    registered one whose metadata holds each value its sentence names."""
    rules = [r for r in REASONS.values() if r.area.startswith(RULES_AREA)]
    assert rules
    assert [r.name for r in rules if r.name not in MESSAGES and r.name not in WITH_MESSAGE] == []
    for name in MESSAGES:
        assert name in REASONS, name
        text = refusal_text(name, _values(REASONS[name].metadata), SERVER)
        assert SERVER not in text and "{" not in text, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_known_reason_is_said_in_the_clients_language(language: str) -> None:
    """Every worded reason, in each language, with every metadata value it names in its
    place; Italian differs from English for each one."""
    english = {
        name: refusal_text(name, _values(REASONS[name].metadata), SERVER) for name in MESSAGES
    }
    use(language)
    for name in MESSAGES:
        metadata = _values(REASONS[name].metadata)
        text = refusal_text(name, metadata, SERVER)
        assert text == _(MESSAGES[name]).format_map(metadata)
        if language == "it":
            assert text != english[name], name
    for name in WITH_MESSAGE:
        text = refusal_text(name, {}, SERVER)
        if language == "en":  # the server's message is English: it says which rule
            assert text == f"{_(WITH_MESSAGE[name])}: {SERVER}"
        else:
            assert text == f"{_(WITH_MESSAGE[name])}."


def test_an_unknown_reason_shows_the_servers_message() -> None:
    use("it")
    assert refusal_text("SOMETHING_NEW", {"card": "7c"}, SERVER) == SERVER
    assert refusal_text("CARD_NOT_HELD", {"card": "7c"}, SERVER) == "Non hai in mano 7c."


def test_a_reason_without_its_values_is_still_said_in_the_clients_words() -> None:
    """Metadata keys are sent "when they apply": a sentence that names a value the
    refusal lacks gives way to the reason's sentence without values, for every reason
    and every subset of its keys."""
    use("it")
    for name in MESSAGES:
        keys = REASONS[name].metadata
        for mask in range(2 ** len(keys)):
            metadata = {k: f"<{k}>" for i, k in enumerate(keys) if mask >> i & 1}
            text = refusal_text(name, metadata, SERVER)
            assert SERVER not in text, (name, metadata)
            assert "{" not in text, (name, metadata)


@pytest.mark.parametrize("game_name", sorted(set(RENDERERS)))
def test_a_card_not_held_is_refused_in_italian_in_every_game(game_name: str) -> None:
    """The rules of each game refuse a card the seat does not hold with a reason; the
    client words it from that reason, in Italian, not with the rules' English."""
    game = get_game(game_name)
    players = 1 if game_name == "solitario" else min(game.seat_counts())
    state = game.new_game({}, players, b"refusal")
    seat = min(game.to_act(state))
    legal = game.legal_actions(state, seat)
    kinds = {a.kind for a in legal}
    kind = ActionKind.PLAY if ActionKind.PLAY in kinds else next(iter(kinds))
    try:
        game.apply(state, seat, Action(kind, cards=("ZZ",)))
    except RuleError as exc:
        refused = exc
    else:  # pragma: no cover - every game refuses a card it does not know
        raise AssertionError(f"{game_name} took a card it does not know")
    assert refused.reason in REASONS
    use("it")
    text = rule_error_text(refused)
    assert refused.reason in MESSAGES or refused.reason in WITH_MESSAGE
    assert str(refused) not in text and "{" not in text
    reason, values = refused.reason, refused.metadata
    if reason in WITH_MESSAGE:
        assert text == f"{_(WITH_MESSAGE[reason])}."
    elif set(_fields(MESSAGES[reason])) <= set(values):
        assert text == _(MESSAGES[reason]).format_map(values)
    else:
        assert text == _(WITHOUT_VALUES[reason])


def _refused(reason: str, metadata: dict[str, str]) -> grpc.aio.AioRpcError:
    status = rich_status(grpc.StatusCode.FAILED_PRECONDITION, SERVER, reason, metadata)
    return grpc.aio.AioRpcError(
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.aio.Metadata(),
        grpc.aio.Metadata(*trailer(status)),
        details=SERVER,
    )


def test_the_engines_refusal_is_read_from_its_error_info() -> None:
    """At the engine: the trailer's ErrorInfo gives reason and metadata; without one (or
    with a reason the client does not know) the call's details stand."""
    use("it")
    assert rpc_refusal_text(_refused("NOT_YOUR_TURN", {"seat": "2"})) == "Non è il tuo turno."
    held = _refused("CARD_NOT_HELD", {"card": "Rd", "seat": "0"})
    assert rpc_refusal_text(held) == "Non hai in mano Rd."
    assert rpc_refusal_text(_refused("SOMETHING_NEW", {})) == SERVER
    bare = grpc.aio.AioRpcError(
        grpc.StatusCode.FAILED_PRECONDITION, grpc.aio.Metadata(), grpc.aio.Metadata(), SERVER
    )
    assert rpc_refusal_text(bare) == SERVER
    use("en")
    assert rpc_refusal_text(held) == "You do not hold Rd."


def test_tavolo_play_says_a_refused_call_in_its_language_with_the_reason() -> None:
    """``tavolo play --table`` refused by the engine: the client's sentence, the status
    and the reason (for scripts and bug reports), never the server's English."""
    use("it")
    missing = _refused("TABLE_NOT_FOUND", {"table_id": "t-9"})
    assert said(missing) == "Il tavolo t-9 non esiste. (FAILED_PRECONDITION) [TABLE_NOT_FOUND]"
    use("en")
    assert said(missing) == "There is no table t-9. (FAILED_PRECONDITION) [TABLE_NOT_FOUND]"
