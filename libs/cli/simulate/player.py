"""One simulated player: what a person does in an evening at the platform.

A player registers, waits for the welcome grant, then, until the run's end, picks one
thing at a time: a table against the computer, the online queue, a stake table, a room
with a friend from the population, a look at the league, or a break (logged out, then
back with its password). At a table it follows its seat's views (``WatchTable``) and
answers its turns with the game's own bot (``tavolo.cardgames.bots``) reading exactly the
view a client app gets, through ``Act``; now and then it chats, steps away mid-game and
resumes the stream from the last version it saw, or leaves the seat to a bot.

Nothing here knows about chaos: a player meets an outage as a client app does, through
the retries of :class:`~tavolo.cli.simulate.client.Client` and by reopening its streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import grpc

from tavolo.cardgames.bots.base import SeatedBot
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cli.play.table_client import view_of
from tavolo.cli.simulate.client import Client
from tavolo.cli.simulate.stats import Stats, TableRecord
from tavolo.tablelog.convert import action_from_proto
from tavolo.v1 import (
    engine_pb2,
    leaderboard_pb2,
    lobby_pb2,
    wallet_pb2,
)

STAKE = 100
IDLE_STREAM_SECONDS = 45.0
"""A table stream silent this long is reopened (a paused or restarted engine)."""
WELCOME_WAIT_SECONDS = 120.0
FRIEND_WAIT_SECONDS = 30.0
POPULAR = 3
"""Stake players crowd the first few games offered, as real ones crowd a favourite, so
stake tables form from people rather than every ticket waiting alone until cancelled."""
CHAT_LINES = ("ciao a tutti", "bella mano!", "tocca a te", "gg", "buona fortuna", "che carte...")
STATUS = {
    engine_pb2.TABLE_STATUS_PLAYING: "PLAYING",
    engine_pb2.TABLE_STATUS_FINISHED: "FINISHED",
    engine_pb2.TABLE_STATUS_ABORTED: "ABORTED",
}


@dataclass(frozen=True)
class GameChoice:
    """A game as ListGames offers it: its name and the seat counts it takes."""

    name: str
    seat_counts: tuple[int, ...]

    @property
    def shared(self) -> tuple[int, ...]:
        """Seat counts with room for more than one person."""
        return tuple(n for n in self.seat_counts if n > 1)


@dataclass
class Pace:
    """How fast the population plays: people think for seconds; ``FAST`` is for short runs."""

    think: tuple[float, float] = (1.0, 4.0)
    pause_between: tuple[float, float] = (0.5, 3.0)
    away: tuple[float, float] = (3.0, 12.0)
    step_away_chance: float = 0.01
    leave_seat_chance: float = 0.002
    chat_chance: float = 0.03


@dataclass
class Population:
    """What the players share: the games, the counters, each other, the clock."""

    games: list[GameChoice]
    stats: Stats
    pace: Pace
    until: float
    """No new activity starts after this (monotonic)."""
    walk_away: float
    """A table still running at this moment is left running (monotonic)."""
    players: list[Player] = field(default_factory=list)


class Player:
    """One simulated person with its own account, session and random generator."""

    def __init__(self, client: Client, population: Population, seed: int) -> None:
        self.client, self.population = client, population
        self.stats: Stats = population.stats
        self.rng = random.Random(seed)
        self.busy = asyncio.Lock()
        self.ready = False

    # -- the evening -----------------------------------------------------------------------

    async def live(self, start_delay: float) -> None:
        await asyncio.sleep(start_delay)
        try:
            await self._sign_up()
            await self._welcome()
            self.ready = True
            self.stats.players_ready += 1
            while time.monotonic() < self.population.until:
                activity = self._pick()
                async with self.busy:
                    # A refusal is counted by the client; the player tries something else.
                    with contextlib.suppress(grpc.aio.AioRpcError):
                        await activity()
                    self.stats.activities[activity.__name__.strip("_")] += 1
                await asyncio.sleep(self.rng.uniform(*self.population.pace.pause_between))
        except grpc.aio.AioRpcError:
            pass  # could not even register or log in through the whole outage
        finally:
            self.stats.players_done += 1

    def _pick(self) -> Callable[[], Awaitable[None]]:
        choices: list[tuple[Callable[[], Awaitable[None]], int]] = [
            (self._versus_computer, 3),
            (self._online, 4),
            (self._stake, 3),
            (self._room, 2),
            (self._league, 1),
            (self._break, 1),
        ]
        actions = [action for action, _ in choices]
        picked: Callable[[], Awaitable[None]] = self.rng.choices(
            actions, [weight for _, weight in choices]
        )[0]
        return picked

    async def _sign_up(self) -> None:
        """Register, trying again after a refusal or a timeout, as a person would."""
        while True:
            try:
                await self.client.register()
                return
            except grpc.aio.AioRpcError:
                if time.monotonic() > self.population.until:
                    raise
                await asyncio.sleep(self.rng.uniform(2.0, 6.0))

    async def _welcome(self) -> None:
        """The welcome grant arrives from the wallet's consumer of PlayerRegistered."""
        deadline = time.monotonic() + WELCOME_WAIT_SECONDS
        while time.monotonic() < deadline:
            try:
                if (await self._balance()).available > 0:
                    return
            except grpc.aio.AioRpcError as exc:
                # NOT_FOUND: the wallet has not opened the account yet (it does so from
                # the lobby's PlayerRegistered); a slow answer is no reason to leave either.
                if exc.code() not in (
                    grpc.StatusCode.NOT_FOUND,
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                    grpc.StatusCode.UNAVAILABLE,
                ):
                    raise
            await asyncio.sleep(1.0)

    async def _balance(self) -> wallet_pb2.Balance:
        wallet = self.client.stubs.wallet
        return await self.client.call(
            "GetBalance", wallet.GetBalance, wallet_pb2.GetBalanceRequest()
        )

    # -- activities --------------------------------------------------------------------------

    async def _versus_computer(self) -> None:
        game = self.rng.choice(self.population.games)
        players = self.rng.choice(game.seat_counts)
        lobby = self.client.stubs.lobby
        seated = await self.client.call(
            "PlayVersusComputer",
            lobby.PlayVersusComputer,
            lobby_pb2.PlayVersusComputerRequest(game=game.name, players=players),
            retry=False,
        )
        await self.play(seated.table_id, game.name, "VERSUS_COMPUTER", 0)

    async def _online(self) -> None:
        await self._queue(0)

    async def _stake(self) -> None:
        if (await self._balance()).available < STAKE:
            await self._versus_computer()
            return
        await self._queue(STAKE)

    async def _queue(self, stake: int) -> None:
        shared = [g for g in self.population.games if g.shared]
        game = self.rng.choice(shared[:POPULAR] if stake else shared)
        players = game.shared[0] if stake else self.rng.choice(game.shared)
        lobby = self.client.stubs.lobby
        ticket = await self.client.call(
            "JoinQueue",
            lobby.JoinQueue,
            lobby_pb2.JoinQueueRequest(game=game.name, players=players, stake=stake),
            retry=False,
        )
        state, table_id = await self._wait_ticket(ticket.ticket_id)
        if state == lobby_pb2.TICKET_STATE_SEATED and table_id:
            await self.play(table_id, game.name, "STAKE" if stake else "ONLINE", stake)
        elif state == lobby_pb2.TICKET_STATE_CANCELLED:
            self.stats.cancelled_stakes += 1
        elif state == lobby_pb2.TICKET_STATE_WAITING:
            await self.client.call(
                "LeaveQueue",
                lobby.LeaveQueue,
                lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id),
            )

    async def _wait_ticket(self, ticket_id: str, limit: float = 180.0) -> tuple[int, str]:
        """The ticket's state once it leaves WAITING (or WAITING when ``limit`` passes)."""
        deadline = min(time.monotonic() + limit, self.population.walk_away)
        lobby = self.client.stubs.lobby
        while time.monotonic() < deadline:
            stream = lobby.WatchLobby(
                lobby_pb2.WatchLobbyRequest(), metadata=await self.client.metadata()
            )
            try:
                while time.monotonic() < deadline:
                    left = max(0.1, deadline - time.monotonic())
                    update = await asyncio.wait_for(stream.read(), timeout=min(left, 30.0))
                    if update is grpc.aio.EOF:
                        break
                    assert isinstance(update, lobby_pb2.LobbyUpdate)
                    if update.WhichOneof("update") != "ticket":
                        continue
                    if update.ticket.ticket_id != ticket_id:
                        continue
                    if update.ticket.state != lobby_pb2.TICKET_STATE_WAITING:
                        return update.ticket.state, update.ticket.table_id
            except TimeoutError:
                pass
            except grpc.aio.AioRpcError as exc:
                self.stats.call_done("WatchLobby", 0.0, exc.code().name, exc.details() or "")
                await asyncio.sleep(1.0)
            finally:
                stream.cancel()
        return lobby_pb2.TICKET_STATE_WAITING, ""

    async def _room(self) -> None:
        friends = [p for p in self.population.players if p is not self and p.ready]
        games = [g for g in self.population.games if g.shared]
        if not friends or not games:
            await self._versus_computer()
            return
        friend = self.rng.choice(friends)
        try:  # the friend finishes what they are playing first, if they can
            await asyncio.wait_for(friend.busy.acquire(), FRIEND_WAIT_SECONDS)
        except TimeoutError:
            await self._versus_computer()
            return
        try:
            game = self.rng.choice(games)
            lobby = self.client.stubs.lobby
            room = await self.client.call(
                "CreateRoom",
                lobby.CreateRoom,
                lobby_pb2.CreateRoomRequest(game=game.name, players=self.rng.choice(game.shared)),
                retry=False,
            )
            await self.client.call(
                "Invite",
                lobby.Invite,
                lobby_pb2.InviteRequest(room_id=room.room_id, nickname=friend.client.nickname),
            )
            await friend.client.call(
                "RespondToInvitation",
                lobby.RespondToInvitation,
                lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
            )
            await self._chat(lobby_pb2.ChatChannel(room_id=room.room_id))
            seated = await self.client.call(
                "StartRoom",
                lobby.StartRoom,
                lobby_pb2.StartRoomRequest(room_id=room.room_id, fill_with_bots=True),
                retry=False,
            )
            await asyncio.gather(
                self.play(seated.table_id, game.name, "FRIENDS", 0),
                friend.play(seated.table_id, game.name, "FRIENDS", 0),
            )
        finally:
            friend.busy.release()

    async def _league(self) -> None:
        board = self.client.stubs.leaderboard
        await self.client.call(
            "GetStanding", board.GetStanding, leaderboard_pb2.GetStandingRequest()
        )

    async def _break(self) -> None:
        """Log out, stay away a while, come back with the password."""
        await self.client.logout()
        await asyncio.sleep(self.rng.uniform(*self.population.pace.away))
        await self.client.login()
        self.stats.comebacks += 1

    async def _chat(self, channel: lobby_pb2.ChatChannel) -> None:
        lobby = self.client.stubs.lobby
        request = lobby_pb2.SendChatRequest(channel=channel, text=self.rng.choice(CHAT_LINES))
        try:
            await self.client.call("SendChat", lobby.SendChat, request, retry=False)
            self.stats.chats += 1
        except grpc.aio.AioRpcError:
            pass  # counted; chat off at this table, or the lobby restarting

    # -- at a table --------------------------------------------------------------------------

    async def play(self, table_id: str, game: str, mode: str, stake: int) -> None:
        """Follow the seat until the table ends, the player leaves it, or the run ends."""
        record = self.stats.table(TableRecord(table_id, game, mode, stake))
        record.players.append(self.client.player_id)
        bot = make_bot(game, self.rng.choice(("easy", "medium", "hard")), uuid.uuid4().hex)
        version = 0
        pace = self.population.pace
        while time.monotonic() < self.population.walk_away:
            stream = self.client.stubs.engine.WatchTable(
                engine_pb2.WatchTableRequest(table_id=table_id, after_version=version),
                metadata=await self.client.metadata(),
            )
            try:
                while time.monotonic() < self.population.walk_away:
                    left = max(0.1, self.population.walk_away - time.monotonic())
                    idle = min(IDLE_STREAM_SECONDS, left)
                    view = await asyncio.wait_for(stream.read(), timeout=idle)
                    if view is grpc.aio.EOF:
                        break
                    assert isinstance(view, engine_pb2.TableView)
                    version = view.version
                    if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                        record.status = STATUS.get(view.status, "PLAYING")
                        record.receipt = view.log_hash or record.receipt
                        return
                    if not (view.HasField("seat") and view.seat in view.to_act):
                        continue
                    if not view.legal_actions:
                        continue
                    if self.rng.random() < pace.leave_seat_chance:
                        await self._leave_seat(table_id)
                        return
                    if self.rng.random() < pace.step_away_chance:
                        self.stats.comebacks += 1
                        await asyncio.sleep(self.rng.uniform(*pace.away))
                        break  # back: the stream resumes after the last version seen
                    await asyncio.sleep(self.rng.uniform(*pace.think))
                    await self._act(table_id, view, bot)
                    if self.rng.random() < pace.chat_chance:
                        await self._chat(lobby_pb2.ChatChannel(table_id=table_id))
            except TimeoutError:
                pass  # silent too long: reopen from the last version
            except grpc.aio.AioRpcError as exc:
                self.stats.call_done("WatchTable", 0.0, exc.code().name, exc.details() or "")
                if exc.code() not in (
                    grpc.StatusCode.UNAVAILABLE,
                    grpc.StatusCode.NOT_FOUND,  # a room's table is dealt a moment later
                    grpc.StatusCode.DEADLINE_EXCEEDED,
                    grpc.StatusCode.CANCELLED,
                ):
                    return
                await asyncio.sleep(1.0)
            finally:
                stream.cancel()

    async def _act(self, table_id: str, view: engine_pb2.TableView, bot: SeatedBot) -> None:
        legal = [action_from_proto(a) for a in view.legal_actions]
        try:
            chosen = bot.choose(view_of(view), legal)
            index = legal.index(chosen)
        except Exception:  # a bot puzzled by a view: any legal move will do
            self.stats.bot_fallbacks += 1
            index = self.rng.randrange(len(legal))
        request = engine_pb2.ActRequest(
            table_id=table_id,
            action=view.legal_actions[index],
            expected_version=view.version,
            request_id=uuid.uuid4().hex,
        )
        engine = self.client.stubs.engine
        # A refusal is counted: a stale version (the clock or a bot moved first), an outage.
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.client.call("Act", engine.Act, request)

    async def _leave_seat(self, table_id: str) -> None:
        engine = self.client.stubs.engine
        await self.client.call(
            "LeaveTable", engine.LeaveTable, engine_pb2.LeaveTableRequest(table_id=table_id)
        )


FAST = Pace(think=(0.2, 1.0), pause_between=(0.3, 1.5), away=(2.0, 6.0))
PACES = {"human": Pace(), "fast": FAST}
