"""Signed checkpoints of a service's log head, published on NATS at a fixed interval.

A checkpoint says "this service's log, up to position P, folds to digest D" (the fold of
``tavolo.eventlog.integrity``), signed with the service's Ed25519 key. Whoever keeps the
checkpoints (an auditor listening on ``<namespace>.checkpoint.<service>``) can later hold
the log to them: a rewrite of any event before P, even one that rebuilds every hash
chain, no longer folds to D, and nobody without the private key can sign a new D.

Ed25519 (``cryptography``) rather than an HMAC: checking needs only the public key, so
the auditor who checks cannot forge.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import structlog
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tavolo.eventlog.integrity import EMPTY_DIGEST, IndexEntry, digest_at, fold_digest
from tavolo.eventlog.store import EventStore

log = structlog.get_logger(__name__)

#: The development signing key's seed: never for production (set TAVOLO_CHECKPOINT_KEY).
DEV_CHECKPOINT_SEED = hashlib.sha256(b"tavolo development checkpoint key").digest()


def signing_key(seed_hex: str | None = None) -> Ed25519PrivateKey:
    """The key from a 32-byte hex seed (default: the development key)."""
    seed = bytes.fromhex(seed_hex) if seed_hex else DEV_CHECKPOINT_SEED
    return Ed25519PrivateKey.from_private_bytes(seed)


def public_hex(key: Ed25519PrivateKey) -> str:
    """The public half, hex: what auditors are given to check checkpoints."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One signed statement about a service's log head."""

    service: str
    position: int
    digest: bytes
    signed_at: str
    signature: bytes = b""

    def payload(self) -> bytes:
        """The bytes the signature covers."""
        fields = {
            "service": self.service,
            "position": self.position,
            "digest": self.digest.hex(),
            "signed_at": self.signed_at,
        }
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def signed(self, key: Ed25519PrivateKey) -> Checkpoint:
        return Checkpoint(
            self.service, self.position, self.digest, self.signed_at, key.sign(self.payload())
        )

    def signature_ok(self, public_key_hex: str) -> bool:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        try:
            key.verify(self.signature, self.payload())
        except InvalidSignature:
            return False
        return True

    def to_json(self) -> str:
        return json.dumps(
            {
                "service": self.service,
                "position": self.position,
                "digest": self.digest.hex(),
                "signed_at": self.signed_at,
                "signature": self.signature.hex(),
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Checkpoint:
        item: dict[str, Any] = json.loads(text)
        return cls(
            service=str(item["service"]),
            position=int(item["position"]),
            digest=bytes.fromhex(item["digest"]),
            signed_at=str(item["signed_at"]),
            signature=bytes.fromhex(item["signature"]),
        )


def checkpoint_subject(namespace: str, service: str) -> str:
    return f"{namespace}.checkpoint.{service}"


class CheckpointPublisher:
    """Folds the log as it grows and publishes a signed checkpoint every ``interval``."""

    def __init__(
        self,
        store: EventStore,
        nats: Any,
        *,
        service: str,
        namespace: str,
        key: Ed25519PrivateKey,
        interval: float,
    ) -> None:
        self._store = store
        self._nats = nats
        self._service = service
        self._subject = checkpoint_subject(namespace, service)
        self._key = key
        self._interval = interval
        self.position = 0
        self.digest = EMPTY_DIGEST

    async def catch_up(self) -> None:
        """Fold every event past the last one folded."""
        while True:
            entries = await self._store.read_index(self.position, 10_000)
            if not entries:
                return
            for entry in entries:
                self.digest = fold_digest(self.digest, entry.hash)
                self.position = entry.position

    async def publish_once(self) -> Checkpoint:
        await self.catch_up()
        checkpoint = Checkpoint(
            self._service,
            self.position,
            self.digest,
            datetime.now(UTC).isoformat(timespec="milliseconds"),
        ).signed(self._key)
        await self._nats.publish(self._subject, checkpoint.to_json().encode())
        return checkpoint

    async def run(self) -> None:
        while True:
            try:
                await self.publish_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a NATS or database hiccup: try again next tick
                log.warning("checkpoint not published", service=self._service, error=str(exc))
            await asyncio.sleep(self._interval)


def hold_to_checkpoints(
    index: Sequence[IndexEntry], checkpoints: Sequence[Checkpoint], public_key_hex: str
) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """Findings, passes, and the position ranges that no longer fold to a checkpoint.

    ``index`` is the whole log of the checkpoints' service in position order. A bad
    range runs from the last checkpoint that still holds to the first that does not.
    """
    findings: list[str] = []
    passed: list[str] = []
    ranges: list[tuple[int, int]] = []
    held = 0
    seen: set[tuple[int, bytes]] = set()
    for checkpoint in sorted(checkpoints, key=lambda c: (c.position, c.signed_at)):
        # A quiet log is checkpointed at one head many times: one finding says it all.
        if (checkpoint.position, checkpoint.digest) in seen and checkpoint.signature_ok(
            public_key_hex
        ):
            continue
        seen.add((checkpoint.position, checkpoint.digest))
        label = (
            f"the {checkpoint.service} checkpoint at position {checkpoint.position}"
            f" signed at {checkpoint.signed_at}"
        )
        if not checkpoint.signature_ok(public_key_hex):
            findings.append(f"{label}: its signature does not verify with the key given")
            continue
        digest = digest_at(index, checkpoint.position)
        if digest is None:
            findings.append(f"{label}: the log no longer holds position {checkpoint.position}")
            ranges.append((held + 1, checkpoint.position))
        elif digest != checkpoint.digest:
            findings.append(
                f"{label}: the log up to it no longer folds to the signed digest: an event"
                f" between positions {held + 1} and {checkpoint.position} was rewritten"
            )
            ranges.append((held + 1, checkpoint.position))
        else:
            passed.append(f"{label}: the log up to it folds to the signed digest")
            held = checkpoint.position
    return findings, passed, ranges
