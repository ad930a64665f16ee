"""Table and room chat (PCG-2): every message recorded with its sender and time.

Who may read: the players seated at the table, or the room's host and accepted friends;
moderators and auditors read any channel (to judge a complaint, PCG-3). Who may write:
the same players, while the table is live, unless their chat is suspended (PCG-4).
"""

from __future__ import annotations

from dataclasses import replace

from tavolo.lobby.accounts.sanctions import ensure_may_chat
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.play import rooms_store, tables_store
from tavolo.lobby.social import chat_store
from tavolo.lobby.social.chat_store import Channel, ChannelKind, ChatMessage
from tavolo.lobby.social.conduct import chat_settings
from tavolo.lobby.social.conduct.chat_settings import ChatSettings
from tavolo.lobby.social.conduct.language import Policy, judge
from tavolo.lobby.store import Connection
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    quoted,
)

MAX_TEXT = 500
DEFAULT_PAGE = 50
MAX_PAGE = 500


def _check_text(text: str) -> str:
    cleaned = text.strip()
    if not cleaned:
        raise InvalidArgument(
            "write something: an empty message is not sent",
            reason="CHAT_MESSAGE_INVALID",
            metadata={"max_length": MAX_TEXT},
        )
    if len(cleaned) > MAX_TEXT:
        raise InvalidArgument(
            f"a chat message has at most {MAX_TEXT} characters, not {len(cleaned)}",
            reason="CHAT_MESSAGE_INVALID",
            metadata={"max_length": MAX_TEXT},
        )
    if any(not ch.isprintable() and ch not in "\n\t" for ch in cleaned):
        raise InvalidArgument(
            "a chat message may not hold control characters",
            reason="CHAT_MESSAGE_INVALID",
            metadata={"max_length": MAX_TEXT},
        )
    return cleaned


def _page_size(size: int) -> int:
    if size < 0:
        raise InvalidArgument(
            "page_size cannot be negative", reason="FIELD_INVALID", metadata={"field": "page_size"}
        )
    return min(size or DEFAULT_PAGE, MAX_PAGE)


def _after(token: str) -> int:
    if not token:
        return 0
    try:
        value = int(token)
    except ValueError:
        raise InvalidArgument(
            "page_token is not one this service gave out",
            reason="PAGE_TOKEN_INVALID",
            metadata={"field": "page_token"},
        ) from None
    if value < 0:
        raise InvalidArgument(
            "page_token is not one this service gave out",
            reason="PAGE_TOKEN_INVALID",
            metadata={"field": "page_token"},
        )
    return value


class Chat:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def send(self, caller: Principal, channel: Channel, text: str) -> ChatMessage:
        cleaned = _check_text(text)
        async with self.ctx.db.transaction() as conn:
            account = await self.ctx.account(conn, caller)
            ensure_may_chat(await self.ctx.sanctions(conn, account.player_id), self.ctx.clock())
            await self._member(conn, caller, channel, writing=True)
            settings = await chat_settings.load(conn, channel)
            if not settings.enabled:
                raise FailedPrecondition("chat is off here", reason="CHAT_OFF")
            verdict = judge(cleaned)
            refused = not verdict.clean and settings.policy is Policy.REFUSE
            message = ChatMessage(
                self.ctx.new_id(),
                channel,
                account.player_id,
                account.nickname,
                "" if refused else verdict.masked,
                self.ctx.clock(),
                None if verdict.clean else cleaned,
                refused,
            )
            await chat_store.insert_message(conn, message)
        if refused:  # recorded for moderators, shown to nobody (PCG-3)
            raise InvalidArgument(
                "not sent: vulgar language is not allowed here (PCG-3)", reason="CHAT_VULGAR"
            )
        return replace(message, original_text=None)

    async def configure(self, caller: Principal, settings: ChatSettings) -> ChatSettings:
        """Turn chat on or off and choose mask or refuse: a room's host, or a moderator."""
        channel = settings.channel
        if not channel.channel_id:
            raise InvalidArgument(
                "say which table or room: the channel is empty",
                reason="FIELD_REQUIRED",
                metadata={"field": "channel"},
            )
        async with self.ctx.db.transaction() as conn:
            if not caller.has(Role.MODERATOR):
                room = None
                if channel.kind is ChannelKind.ROOM:
                    room = await rooms_store.room(conn, channel.channel_id)
                if room is None or room.host_id != caller.player_id:
                    raise PermissionDenied(
                        "only a room's host or a moderator sets where chat is enabled",
                        reason="HOST_ONLY",
                    )
            elif channel.kind is ChannelKind.TABLE:
                if await tables_store.table(conn, channel.channel_id) is None:
                    raise NotFound(
                        f"no table {quoted(channel.channel_id)}",
                        reason="TABLE_NOT_FOUND",
                        metadata={"table_id": channel.channel_id},
                    )
            elif await rooms_store.room(conn, channel.channel_id) is None:
                raise NotFound(
                    f"no room {quoted(channel.channel_id)}",
                    reason="ROOM_NOT_FOUND",
                    metadata={"room_id": channel.channel_id},
                )
            await chat_settings.save(conn, settings, caller.player_id, self.ctx.clock())
        return settings

    async def list(
        self, caller: Principal, channel: Channel, page_size: int, page_token: str
    ) -> tuple[list[ChatMessage], str]:
        limit = _page_size(page_size)
        after = _after(page_token)
        async with self.ctx.db.connection() as conn:
            staff = caller.has(Role.MODERATOR) or caller.has(Role.AUDITOR)
            if not staff:
                await self.ctx.lobby_account(conn, caller)  # a suspension closes chat (PCG-4)
                await self._member(conn, caller, channel, writing=False)
            messages, next_seq = await chat_store.page(conn, channel, after, limit, staff=staff)
        return messages, ("" if next_seq is None else str(next_seq))

    async def _member(
        self, conn: Connection, caller: Principal, channel: Channel, *, writing: bool
    ) -> None:
        if not channel.channel_id:
            raise InvalidArgument(
                "say which table or room: the channel is empty",
                reason="FIELD_REQUIRED",
                metadata={"field": "channel"},
            )
        if channel.kind is ChannelKind.TABLE:
            if not await tables_store.is_seated(conn, channel.channel_id, caller.player_id):
                raise NotFound(
                    f"you are not seated at table {quoted(channel.channel_id)}",
                    reason="NOT_AT_TABLE",
                    metadata={"table_id": channel.channel_id},
                )
            if writing:
                record = await tables_store.table(conn, channel.channel_id)
                if record is not None and record.ended_at is not None:
                    raise FailedPrecondition(
                        "this table has ended; its chat is closed",
                        reason="CHAT_CLOSED",
                        metadata={"table_id": channel.channel_id},
                    )
            return
        room = await rooms_store.room(conn, channel.channel_id)
        if room is None or not room.is_member(caller.player_id):
            raise NotFound(
                f"you are not in room {quoted(channel.channel_id)}",
                reason="NOT_IN_ROOM",
                metadata={"room_id": channel.channel_id},
            )
