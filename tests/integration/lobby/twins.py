"""In-memory twins of the lobby's two ports (wallet, engine), for tests of the lobby alone.

They behave as the real services promise to (docs/flows.md): holds are idempotent by id,
a short or frozen account is refused with FAILED_PRECONDITION, releasing is idempotent,
and an opened table is recorded once per id. tests/e2e/test_lobby_flows.py runs the same
scenarios against the real wallet and engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from tavolo.lobby.play.tables import Mode, Seat, TableSpec
from tavolo.servicekit.errors import FailedPrecondition, NotFound, Unavailable


@dataclass
class HoldRecord:
    player_id: str
    amount: int
    state: str = "pending"  # pending, voided


@dataclass
class MemoryWallet:
    """Coins per player; holds take coins out of ``available`` until voided."""

    balances: dict[str, int] = field(default_factory=dict)
    frozen: set[str] = field(default_factory=set)
    holds: dict[str, HoldRecord] = field(default_factory=dict)
    down: bool = False
    starting_coins: int = 1000

    def available(self, player_id: str) -> int:
        return self.balances.setdefault(player_id, self.starting_coins)

    async def hold_stake(self, hold_id: str, player_id: str, amount: int, cause: str) -> None:
        if self.down:
            raise Unavailable(
                "the wallet is not reachable right now; try again in a moment",
                reason="SERVICE_UNREACHABLE",
            )
        if hold_id in self.holds:
            return
        if player_id in self.frozen:
            raise FailedPrecondition(
                "your balance is frozen: stakes are refused", reason="ACCOUNT_FROZEN"
            )
        have = self.available(player_id)
        if have < amount:
            raise FailedPrecondition(
                f"you have {have} coins; this stake needs {amount}", reason="INSUFFICIENT_COINS"
            )
        self.balances[player_id] = have - amount
        self.holds[hold_id] = HoldRecord(player_id, amount)

    async def release_hold(self, hold_id: str) -> None:
        if self.down:
            raise Unavailable(
                "the wallet is not reachable right now; try again in a moment",
                reason="SERVICE_UNREACHABLE",
            )
        hold = self.holds.get(hold_id)
        if hold is None:
            raise NotFound(f"no hold {hold_id}", reason="HOLD_NOT_FOUND")
        if hold.state == "pending":
            hold.state = "voided"
            self.balances[hold.player_id] += hold.amount


@dataclass
class OpenedTable:
    table_id: str
    spec: TableSpec
    seats: tuple[Seat, ...]
    mode: Mode
    ko: bool = False
    deal_seed: bytes = b""
    sealed_until: datetime | None = None


@dataclass
class MemoryEngine:
    tables: dict[str, OpenedTable] = field(default_factory=dict)
    refuse_with: Exception | None = None

    async def open_table(
        self,
        table_id: str,
        spec: TableSpec,
        seats: Sequence[Seat],
        mode: Mode,
        *,
        ko: bool = False,
        engine_options: Mapping[str, int] | None = None,
        deal_seed: bytes = b"",
        sealed_until: datetime | None = None,
    ) -> None:
        if self.refuse_with is not None:
            raise self.refuse_with
        opened = OpenedTable(table_id, spec, tuple(seats), mode, ko, deal_seed, sealed_until)
        self.tables.setdefault(table_id, opened)
