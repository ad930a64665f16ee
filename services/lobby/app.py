"""The lobby's use cases: the only place that decides.

``LobbyApp`` bundles one object per group of use cases (accounts, tables and rooms,
queues, chat, moderation, live updates); each takes the shared ``LobbyContext``: the
database, the event log, the engine and wallet ports, the notifier, the clock and the
id source. Decisions come from the pure modules (``nicknames``, ``sanctions``,
``rooms``, ``matchmaking``, ``tables``); the store modules only read and write.

Every refusal a player can cause is a DomainError with a message that says what to do;
each use case decides before it writes, so a refused request changes nothing.
"""

from __future__ import annotations

from tavolo.lobby.accounts.app import Accounts
from tavolo.lobby.context import LobbyContext
from tavolo.lobby.duplicates.app import Duplicates
from tavolo.lobby.play.app import Play
from tavolo.lobby.play.matchmaker import Matchmaker
from tavolo.lobby.play.queue import Queue
from tavolo.lobby.social.chat import Chat
from tavolo.lobby.social.conduct.fair_play import FairPlay
from tavolo.lobby.social.conduct.reports import Reports
from tavolo.lobby.social.moderation import Moderation
from tavolo.lobby.tournaments.app import Tournaments
from tavolo.lobby.watch import Watch


class LobbyApp:
    """Every use case of the lobby, grouped."""

    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx
        self.accounts = Accounts(ctx)
        self.play = Play(ctx)
        self.queue = Queue(ctx)
        self.matchmaker = Matchmaker(ctx)
        self.chat = Chat(ctx)
        self.moderation = Moderation(ctx)
        self.reports = Reports(ctx)
        self.fair_play = FairPlay(ctx)
        self.watch = Watch(ctx)
        self.tournaments = Tournaments(ctx, self.queue.release_now)
        self.duplicates = Duplicates(ctx)
