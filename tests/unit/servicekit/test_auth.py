"""Session tokens (DESIGN guarantee 9): signed, expiring, typed, carrying roles."""

from __future__ import annotations

import time

import pytest

from tavolo.servicekit.auth import Principal, Role, TokenSigner
from tavolo.servicekit.errors import PermissionDenied, Unauthenticated

SIGNER = TokenSigner("a-secret-of-enough-length-for-hs256!")


def test_a_token_names_its_player_and_roles() -> None:
    token, expires = SIGNER.issue("p1", [Role.PLAYER, Role.AUDITOR], nickname="Ada")
    assert expires > time.time()
    principal = SIGNER.verify(token)
    assert principal == Principal("p1", frozenset({Role.PLAYER, Role.AUDITOR}), "Ada")


def test_an_expired_token_is_refused_with_the_fix() -> None:
    token, _ = SIGNER.issue("p1", [Role.PLAYER], now=time.time() - 3600, ttl_seconds=60)
    with pytest.raises(Unauthenticated, match="expired"):
        SIGNER.verify(token)


def test_a_token_verified_before_still_expires() -> None:
    signer = TokenSigner("a-secret-of-enough-length-for-hs256!")
    token, expires = signer.issue("p1", [Role.PLAYER], ttl_seconds=1)
    assert signer.verify(token).player_id == "p1"
    assert signer.verify(token).player_id == "p1"  # answered from memory
    time.sleep(max(0.0, expires - time.time()) + 0.05)
    with pytest.raises(Unauthenticated, match="expired"):
        signer.verify(token)


def test_a_verified_token_does_not_vouch_for_another_kind_or_a_tampered_copy() -> None:
    signer = TokenSigner("a-secret-of-enough-length-for-hs256!")
    token, _ = signer.issue("p1", [Role.PLAYER])
    signer.verify(token)
    with pytest.raises(Unauthenticated, match="access token cannot be used here"):
        signer.verify(token, kind="refresh")
    head, body, sig = token.split(".")
    with pytest.raises(Unauthenticated):
        signer.verify(f"{head}.{body}.{sig[:-2]}xx")


def test_a_token_signed_with_another_secret_is_refused() -> None:
    forged, _ = TokenSigner("another-secret-entirely-of-32-bytes!").issue("p1", [Role.OPERATOR])
    with pytest.raises(Unauthenticated, match="not valid"):
        SIGNER.verify(forged)


def test_a_tampered_token_is_refused() -> None:
    token, _ = SIGNER.issue("p1", [Role.PLAYER])
    head, body, sig = token.split(".")
    with pytest.raises(Unauthenticated):
        SIGNER.verify(f"{head}.{body[:-2]}xx.{sig}")


def test_a_refresh_token_is_not_an_access_token() -> None:
    refresh, _ = SIGNER.issue("p1", [Role.PLAYER], kind="refresh")
    with pytest.raises(Unauthenticated, match="refresh token cannot be used here"):
        SIGNER.verify(refresh)
    assert SIGNER.verify(refresh, kind="refresh").player_id == "p1"


def test_roles_are_required_by_name() -> None:
    player = Principal("p1", frozenset({Role.PLAYER}))
    with pytest.raises(PermissionDenied, match="operator or moderator role"):
        player.require(Role.OPERATOR, Role.MODERATOR)
    Principal("m", frozenset({Role.MODERATOR})).require(Role.OPERATOR, Role.MODERATOR)


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        TokenSigner("short")
