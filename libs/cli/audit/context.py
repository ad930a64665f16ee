"""What happened around a table beside its moves: its chat and the coins it moved.

The replay page shows both next to the events (AUDIT-5: every coin movement names the
game event that caused it). They come from the lobby and the wallet, not from the
engine's hash-chained log, so the page says whose word they are; a service that cannot be
reached leaves its part out and says why instead of failing the export, since the table's
own proof (chain, seed, replay) does not depend on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from tavolo.cli import session
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, wallet_pb2, wallet_pb2_grpc

CHAT_PAGE = 200
#: A table's chat beyond this many lines is cut, and the page says so.
MAX_CHAT = 5000
TIMEOUT = 10.0


@dataclass(slots=True)
class TableContext:
    """The chat lines and coin movements of one table, as plain JSON-ready dicts."""

    chat: list[dict[str, Any]] = field(default_factory=list)
    transfers: list[dict[str, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Why a part is not on the page (not asked for, a service unreachable, refused)."""

    def to_json(self) -> dict[str, Any]:
        return {"chat": self.chat, "transfers": self.transfers, "missing": self.missing}


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since 1970 (UTC): what the page compares events, chat and coins by."""
    return int(moment.astimezone(UTC).timestamp() * 1000)


def _moment(stamp: Timestamp) -> datetime:
    return stamp.ToDatetime(tzinfo=UTC)


def chat_line(message: lobby_pb2.ChatMessage) -> dict[str, Any]:
    sent = _moment(message.sent_at)
    return {
        "ms": epoch_ms(sent),
        "at": sent.isoformat(timespec="milliseconds"),
        "nickname": message.sender_nickname,
        "player": message.sender_id,
        "text": message.text,
        "original": message.original_text,  # filled for moderators and auditors only
        "refused": message.refused,
    }


_STATES = {
    wallet_pb2.TRANSFER_STATE_PENDING: "held",
    wallet_pb2.TRANSFER_STATE_POSTED: "posted",
    wallet_pb2.TRANSFER_STATE_VOIDED: "voided",
}


def coin_movement(transfer: wallet_pb2.Transfer) -> dict[str, Any]:
    made = _moment(transfer.created_at)
    return {
        "ms": epoch_ms(made),
        "at": made.isoformat(timespec="milliseconds"),
        "transfer_id": transfer.transfer_id,
        "debit": transfer.debit_account,
        "credit": transfer.credit_account,
        "amount": transfer.amount,
        "state": _STATES.get(transfer.state, "unknown"),
        "cause": transfer.cause,
        "event_id": transfer.event_id,
        "pending_id": transfer.pending_id,
    }


async def fetch_context(
    table_id: str, token: str, *, lobby: str | None, wallet: str | None
) -> TableContext:
    """The table's chat from ``lobby`` and its coin movements from ``wallet`` (None: skip)."""
    found = TableContext()
    metadata = (("authorization", f"Bearer {token}"),)
    if lobby is None:
        found.missing.append("chat: not asked for")
    else:
        try:
            found.chat = await _chat(lobby, metadata, table_id)
        except grpc.aio.AioRpcError as exc:
            found.missing.append(f"chat: the lobby at {lobby} said {session.rpc_error_text(exc)}")
    if wallet is None:
        found.missing.append("coin movements: not asked for")
    else:
        try:
            found.transfers = await _transfers(wallet, metadata, table_id)
        except grpc.aio.AioRpcError as exc:
            found.missing.append(
                f"coin movements: the wallet at {wallet} said {session.rpc_error_text(exc)}"
            )
    return found


async def _chat(
    address: str, metadata: tuple[tuple[str, str], ...], table_id: str
) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    async with session.aio_channel(address) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        token = ""
        while len(lines) < MAX_CHAT:
            page = await stub.ListChat(
                lobby_pb2.ListChatRequest(
                    channel=lobby_pb2.ChatChannel(table_id=table_id),
                    page=common_pb2.PageRequest(page_size=CHAT_PAGE, page_token=token),
                ),
                metadata=metadata,
                timeout=TIMEOUT,
            )
            lines += [chat_line(m) for m in page.messages]
            token = page.page.next_page_token
            if not token:
                break
    return lines


async def _transfers(
    address: str, metadata: tuple[tuple[str, str], ...], table_id: str
) -> list[dict[str, Any]]:
    async with session.aio_channel(address) as channel:
        stub = wallet_pb2_grpc.WalletStub(channel)
        moved = await stub.ListTableTransfers(
            wallet_pb2.ListTableTransfersRequest(table_id=table_id),
            metadata=metadata,
            timeout=TIMEOUT,
        )
    return [coin_movement(t) for t in moved.transfers]
