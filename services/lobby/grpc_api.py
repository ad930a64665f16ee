"""The Lobby gRPC servicer: protobuf in, a use case, protobuf out. Nothing decided here.

Authentication happens before any method runs (the service kit's interceptor); only
Register, Login and Refresh are public. Domain errors raised by the use cases become
their status codes in the same interceptor.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from tavolo.cardgames.registry import all_games
from tavolo.lobby import convert
from tavolo.lobby.app import LobbyApp
from tavolo.lobby.dead_letters import DeadLetterDesk
from tavolo.lobby.duplicates.grpc_api import DuplicateRpcs
from tavolo.lobby.social.conduct import convert as conduct_convert
from tavolo.lobby.social.conduct.fair_play import INSTALLATION_HEADER, installation_id, peer_address
from tavolo.lobby.social.conduct.reports import ReportAbout
from tavolo.lobby.tournaments import convert as tournament_convert
from tavolo.lobby.tournaments.stream import CANCELLED, FINISHED
from tavolo.lobby.updates import LobbyUpdates
from tavolo.servicekit.auth import Principal, caller, current_principal
from tavolo.servicekit.grpc_server import GrpcService
from tavolo.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc

PUBLIC_METHODS = frozenset({"Register", "Login", "Refresh", "Logout"})
# How often a tournament's follower looks for changes (any replica may have made them).
WATCH_POLL_SECONDS = 0.5

Context = grpc.aio.ServicerContext[Any, Any]


def _installation(context: Context) -> str:
    sent = dict(context.invocation_metadata() or ())
    return installation_id(str(sent.get(INSTALLATION_HEADER, "")))


class LobbyServicer(DuplicateRpcs, lobby_pb2_grpc.LobbyServicer):
    def __init__(self, app: LobbyApp, updates: LobbyUpdates, letters: DeadLetterDesk) -> None:
        self.app = app
        self.updates = updates
        self.letters = letters

    # -- accounts ---------------------------------------------------------------------

    async def Register(
        self, request: lobby_pb2.RegisterRequest, context: Context
    ) -> lobby_pb2.Session:
        linked = current_principal.get()  # set when a token came with the call
        installation = _installation(context)
        tokens = await self.app.accounts.register(request.nickname, request.password, linked)
        await self._seen(context, tokens.account.player_id, installation)
        return convert.session(tokens)

    async def Login(self, request: lobby_pb2.LoginRequest, context: Context) -> lobby_pb2.Session:
        installation = _installation(context)
        tokens = await self.app.accounts.login(request.nickname, request.password)
        await self._seen(context, tokens.account.player_id, installation)
        return convert.session(tokens)

    async def _seen(self, context: Context, player_id: str, installation: str) -> None:
        """Where a session came from, for the collusion signals (PCG-3)."""
        address = peer_address(context.peer() or "")
        if address or installation:
            await self.app.fair_play.session_seen(player_id, address, installation)

    async def Refresh(
        self, request: lobby_pb2.RefreshRequest, context: Context
    ) -> lobby_pb2.Session:
        installation = _installation(context)
        tokens = await self.app.accounts.refresh(request.refresh_token)
        await self._seen(context, tokens.account.player_id, installation)
        return convert.session(tokens)

    async def Logout(
        self, request: lobby_pb2.LogoutRequest, context: Context
    ) -> lobby_pb2.LogoutResponse:
        await self.app.accounts.logout(request.refresh_token)
        return lobby_pb2.LogoutResponse()

    async def GetProfile(
        self, request: lobby_pb2.GetProfileRequest, context: Context
    ) -> lobby_pb2.Profile:
        return convert.profile(await self.app.accounts.profile(caller(), request.player_id))

    async def SetRoles(
        self, request: lobby_pb2.SetRolesRequest, context: Context
    ) -> lobby_pb2.Profile:
        roles = convert.roles_in(request.roles)
        view = await self.app.accounts.set_roles(caller(), request.player_id, roles)
        return convert.profile(view)

    # -- tables and rooms -------------------------------------------------------------

    async def ListGames(
        self, request: lobby_pb2.ListGamesRequest, context: Context
    ) -> lobby_pb2.ListGamesResponse:
        games = sorted(all_games().values(), key=lambda g: g.name)
        return lobby_pb2.ListGamesResponse(games=[convert.game_info(g) for g in games])

    async def PlayVersusComputer(
        self, request: lobby_pb2.PlayVersusComputerRequest, context: Context
    ) -> lobby_pb2.TableAssignment:
        found = await self.app.play.versus_computer(
            caller(),
            request.game,
            convert.options_in(request),
            request.players,
            convert.bot_level_in(request.level),
        )
        return convert.assignment(found)

    async def CreateRoom(
        self, request: lobby_pb2.CreateRoomRequest, context: Context
    ) -> lobby_pb2.Room:
        room = await self.app.play.create_room(
            caller(), request.game, convert.options_in(request), request.players
        )
        return convert.room(room)

    async def Invite(self, request: lobby_pb2.InviteRequest, context: Context) -> lobby_pb2.Room:
        return convert.room(await self.app.play.invite(caller(), request.room_id, request.nickname))

    async def RespondToInvitation(
        self, request: lobby_pb2.RespondToInvitationRequest, context: Context
    ) -> lobby_pb2.Room:
        room = await self.app.play.respond(caller(), request.room_id, request.accept)
        return convert.room(room)

    async def StartRoom(
        self, request: lobby_pb2.StartRoomRequest, context: Context
    ) -> lobby_pb2.TableAssignment:
        found = await self.app.play.start_room(
            caller(),
            request.room_id,
            request.fill_with_bots,
            convert.bot_level_in(request.bot_level),
        )
        return convert.assignment(found)

    # -- queues -----------------------------------------------------------------------

    async def JoinQueue(
        self, request: lobby_pb2.JoinQueueRequest, context: Context
    ) -> lobby_pb2.Ticket:
        ticket = await self.app.queue.join(
            caller(), request.game, request.players, convert.options_in(request), request.stake
        )
        return convert.ticket(ticket)

    async def LeaveQueue(
        self, request: lobby_pb2.LeaveQueueRequest, context: Context
    ) -> lobby_pb2.Ticket:
        return convert.ticket(await self.app.queue.leave(caller(), request.ticket_id))

    async def WatchLobby(
        self, request: lobby_pb2.WatchLobbyRequest, context: Context
    ) -> AsyncIterator[lobby_pb2.LobbyUpdate]:
        who = caller()
        async with (
            self.updates.suspension(who.player_id) as stop,
            self.updates.follow(who.player_id) as live,
        ):
            await self._may_use_lobby(who)
            for update in await self.app.watch.snapshot(who):
                yield convert.lobby_update(update)
            while True:
                payload = await self._next_or_suspended(who, live, stop)
                yield lobby_pb2.LobbyUpdate.FromString(payload)
                await asyncio.sleep(0)

    async def _may_use_lobby(self, who: Principal) -> None:
        """PERMISSION_DENIED, saying which sanction, if the caller is kept out (PCG-4)."""
        async with self.app.ctx.db.connection() as conn:
            await self.app.ctx.lobby_account(conn, who)

    async def _next_or_suspended(
        self, who: Principal, live: asyncio.Queue[bytes], stop: asyncio.Event
    ) -> bytes:
        """The next update, unless the caller is suspended first: then the stream ends at
        once with the sanction's refusal."""
        while True:
            get = asyncio.ensure_future(live.get())
            halt = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({get, halt}, return_when=asyncio.FIRST_COMPLETED)
            for task in (get, halt):
                if task not in done:
                    task.cancel()
            if halt in done:
                stop.clear()
                await self._may_use_lobby(who)  # raises: the suspension is recorded
            if get in done:
                return get.result()

    # -- chat and sanctions -----------------------------------------------------------

    async def SendChat(
        self, request: lobby_pb2.SendChatRequest, context: Context
    ) -> lobby_pb2.ChatMessage:
        message = await self.app.chat.send(
            caller(), convert.channel_in(request.channel), request.text
        )
        return convert.chat_message(message)

    async def SetChatSettings(
        self, request: lobby_pb2.ChatSettings, context: Context
    ) -> lobby_pb2.ChatSettings:
        found = await self.app.chat.configure(caller(), convert.chat_settings_in(request))
        return convert.chat_settings_out(found)

    async def ReportPlayer(
        self, request: lobby_pb2.ReportPlayerRequest, context: Context
    ) -> lobby_pb2.ReportReceipt:
        about = ReportAbout(request.message_id, request.table_id, request.player_id)
        return conduct_convert.receipt(await self.app.reports.file(caller(), about, request.reason))

    async def ListMyReports(
        self, request: lobby_pb2.ListMyReportsRequest, context: Context
    ) -> lobby_pb2.ListMyReportsResponse:
        found, token = await self.app.reports.mine(
            caller(), request.page.page_size, request.page.page_token
        )
        return lobby_pb2.ListMyReportsResponse(
            reports=[conduct_convert.receipt(r) for r in found],
            page=common_pb2.PageInfo(next_page_token=token),
        )

    async def ListReports(
        self, request: lobby_pb2.ListReportsRequest, context: Context
    ) -> lobby_pb2.ListReportsResponse:
        found, token = await self.app.reports.queue(
            caller(), request.open_only, request.page.page_size, request.page.page_token
        )
        return lobby_pb2.ListReportsResponse(
            reports=[conduct_convert.report(r) for r in found],
            page=common_pb2.PageInfo(next_page_token=token),
        )

    async def ResolveReport(
        self, request: lobby_pb2.ResolveReportRequest, context: Context
    ) -> lobby_pb2.Report:
        resolved = await self.app.reports.resolve(
            caller(), request.report_id, request.sanction_id, request.note
        )
        return conduct_convert.report(resolved)

    async def ResolveReports(
        self, request: lobby_pb2.ResolveReportsRequest, context: Context
    ) -> lobby_pb2.ResolveReportsResponse:
        decided = await self.app.reports.resolve_many(
            caller(), list(request.report_ids), request.sanction_id, request.note
        )
        return lobby_pb2.ResolveReportsResponse(
            reports=[conduct_convert.report(r) for r in decided]
        )

    async def ListSanctions(
        self, request: lobby_pb2.ListSanctionsRequest, context: Context
    ) -> lobby_pb2.ListSanctionsResponse:
        found = await self.app.moderation.history(caller(), request.player_id)
        return lobby_pb2.ListSanctionsResponse(sanctions=[convert.sanction(s) for s in found])

    async def FindPlayer(
        self, request: lobby_pb2.FindPlayerRequest, context: Context
    ) -> lobby_pb2.Profile:
        return convert.profile(await self.app.accounts.find(caller(), request.nickname))

    async def ListCollusionSignals(
        self, request: lobby_pb2.ListCollusionSignalsRequest, context: Context
    ) -> lobby_pb2.ListCollusionSignalsResponse:
        found = await self.app.fair_play.signals(caller(), request.limit)
        return lobby_pb2.ListCollusionSignalsResponse(
            pairs=[conduct_convert.collusion_pair(p) for p in found]
        )

    async def ListChat(
        self, request: lobby_pb2.ListChatRequest, context: Context
    ) -> lobby_pb2.ListChatResponse:
        messages, next_token = await self.app.chat.list(
            caller(),
            convert.channel_in(request.channel),
            request.page.page_size,
            request.page.page_token,
        )
        return lobby_pb2.ListChatResponse(
            messages=[convert.chat_message(m) for m in messages],
            page=common_pb2.PageInfo(next_page_token=next_token),
        )

    async def ApplySanction(
        self, request: lobby_pb2.ApplySanctionRequest, context: Context
    ) -> lobby_pb2.Sanction:
        found = await self.app.moderation.apply(
            caller(),
            request.player_id,
            convert.KIND_FROM_PROTO.get(request.kind),
            convert.DURATION_FROM_PROTO.get(request.duration),
            request.reason,
        )
        return convert.sanction(found)

    async def LiftSanction(
        self, request: lobby_pb2.LiftSanctionRequest, context: Context
    ) -> lobby_pb2.Sanction:
        return convert.sanction(await self.app.moderation.lift(caller(), request.sanction_id))

    async def ListDeadLetters(
        self, request: lobby_pb2.ListDeadLettersRequest, context: Context
    ) -> lobby_pb2.ListDeadLettersResponse:
        letters = await self.letters.latest(caller(), request.limit)
        return lobby_pb2.ListDeadLettersResponse(letters=letters)

    # -- tournaments (PCG-7) ----------------------------------------------------------

    async def CreateTournament(
        self, request: lobby_pb2.CreateTournamentRequest, context: Context
    ) -> lobby_pb2.Tournament:
        asked = tournament_convert.new_tournament(request)
        return tournament_convert.tournament(await self.app.tournaments.create(caller(), asked))

    async def CancelTournament(
        self, request: lobby_pb2.CancelTournamentRequest, context: Context
    ) -> lobby_pb2.Tournament:
        found = await self.app.tournaments.cancel(caller(), request.tournament_id, request.reason)
        return tournament_convert.tournament(found)

    async def ListTournaments(
        self, request: lobby_pb2.ListTournamentsRequest, context: Context
    ) -> lobby_pb2.ListTournamentsResponse:
        found = await self.app.tournaments.listed(caller(), request.limit)
        return lobby_pb2.ListTournamentsResponse(
            tournaments=[tournament_convert.tournament(t) for t in found]
        )

    async def RegisterTournament(
        self, request: lobby_pb2.RegisterTournamentRequest, context: Context
    ) -> lobby_pb2.Tournament:
        found = await self.app.tournaments.register(caller(), request.tournament_id)
        return tournament_convert.tournament(found)

    async def UnregisterTournament(
        self, request: lobby_pb2.UnregisterTournamentRequest, context: Context
    ) -> lobby_pb2.Tournament:
        found = await self.app.tournaments.unregister(caller(), request.tournament_id)
        return tournament_convert.tournament(found)

    async def GetTournament(
        self, request: lobby_pb2.GetTournamentRequest, context: Context
    ) -> lobby_pb2.Tournament:
        found = await self.app.tournaments.get(caller(), request.tournament_id)
        return tournament_convert.tournament(found)

    async def WatchTournament(
        self, request: lobby_pb2.WatchTournamentRequest, context: Context
    ) -> AsyncIterator[lobby_pb2.Tournament]:
        """The tournament now, then after each change; it ends after the last one. Reading
        it keeps the caller present for their next match (any replica sees the same)."""
        who = caller()
        tournaments = self.app.tournaments
        async with self.updates.suspension(who.player_id) as stop:
            await self._may_use_lobby(who)
            found = await tournaments.get(who, request.tournament_id)
            yield tournament_convert.tournament(found)
            while found.status not in (FINISHED, CANCELLED):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), WATCH_POLL_SECONDS)
                if stop.is_set():
                    stop.clear()
                    await self._may_use_lobby(who)  # a suspension ends the stream at once
                if not await tournaments.changed_since(who, request.tournament_id, found.version):
                    continue
                found = await tournaments.get(who, request.tournament_id)
                yield tournament_convert.tournament(found)


def lobby_grpc_service(
    app: LobbyApp, updates: LobbyUpdates, letters: DeadLetterDesk
) -> GrpcService:
    servicer = LobbyServicer(app, updates, letters)
    return GrpcService(
        full_name=lobby_pb2.DESCRIPTOR.services_by_name["Lobby"].full_name,
        add_to_server=lambda server: lobby_pb2_grpc.add_LobbyServicer_to_server(servicer, server),
        public_methods=PUBLIC_METHODS,
    )
