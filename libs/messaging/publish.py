"""Publishing to JetStream with a de-duplication id.

JetStream drops a message whose ``Nats-Msg-Id`` it has already stored within the
stream's duplicate window, so a publisher that retries (the outbox relay after a crash)
cannot store a fact twice. The id is the event id: consumers record the same id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nats.js.api import PubAck

MSG_ID_HEADER = "Nats-Msg-Id"


async def publish_with_id(
    js: Any,
    subject: str,
    payload: bytes,
    *,
    msg_id: str,
    headers: Mapping[str, str] | None = None,
    ack_timeout: float = 5.0,
) -> PubAck:
    """Publish and wait for JetStream's ack; ``ack.duplicate`` tells a dropped repeat."""
    all_headers = {**(headers or {}), MSG_ID_HEADER: msg_id}
    ack: PubAck = await js.publish(subject, payload, timeout=ack_timeout, headers=all_headers)
    return ack
