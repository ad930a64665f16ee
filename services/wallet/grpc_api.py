"""The ``tavolo.v1.Wallet`` servicer: protobuf in, a use case, protobuf out.

Nothing is decided here; refusals are DomainErrors raised by the use cases, which the
shared interceptor maps to status codes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from tavolo.servicekit.auth import caller
from tavolo.servicekit.grpc_server import GrpcService
from tavolo.v1 import wallet_pb2 as pb
from tavolo.v1 import wallet_pb2_grpc as pb_grpc
from tavolo.wallet.app import BalanceView, HoldView, WalletApp
from tavolo.wallet.transfers import Transfer, TransferState

Context = grpc.aio.ServicerContext[Any, Any]
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Wallet"].full_name

_STATES = {
    TransferState.PENDING: pb.TRANSFER_STATE_PENDING,
    TransferState.POSTED: pb.TRANSFER_STATE_POSTED,
    TransferState.VOIDED: pb.TRANSFER_STATE_VOIDED,
}


def _timestamp(moment: datetime | None) -> Timestamp | None:
    if moment is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def balance_out(view: BalanceView) -> pb.Balance:
    return pb.Balance(
        player_id=view.player_id,
        available=view.available,
        held=view.held,
        frozen=view.frozen,
        frozen_reason=view.frozen_reason,
    )


def hold_out(view: HoldView) -> pb.Hold:
    return pb.Hold(
        hold_id=view.hold_id,
        player_id=view.player_id,
        amount=view.amount,
        state=_STATES[view.state],
        expires_at=_timestamp(view.expires_at),
    )


def transfer_out(transfer: Transfer) -> pb.Transfer:
    return pb.Transfer(
        transfer_id=transfer.transfer_id,
        debit_account=transfer.debit_account,
        credit_account=transfer.credit_account,
        amount=transfer.amount,
        state=_STATES[transfer.state],
        cause=transfer.cause,
        created_at=_timestamp(transfer.created_at),
        pending_id=transfer.pending_id,
        event_id=transfer.event_id,
    )


class WalletServicer(pb_grpc.WalletServicer):
    """Translates ``tavolo.v1.Wallet`` calls to :class:`WalletApp` use cases."""

    def __init__(self, wallet: WalletApp) -> None:
        self._wallet = wallet

    async def GetBalance(self, request: pb.GetBalanceRequest, context: Context) -> pb.Balance:
        return balance_out(await self._wallet.get_balance(caller(), request.player_id))

    async def ListTransfers(
        self, request: pb.ListTransfersRequest, context: Context
    ) -> pb.ListTransfersResponse:
        page = await self._wallet.list_transfers(
            caller(), request.player_id, request.page.page_size, request.page.page_token
        )
        response = pb.ListTransfersResponse(transfers=[transfer_out(t) for t in page.transfers])
        response.page.next_page_token = page.next_page_token
        return response

    async def HoldStake(self, request: pb.HoldStakeRequest, context: Context) -> pb.Hold:
        hold = await self._wallet.hold_stake(
            caller(),
            request.hold_id,
            request.player_id,
            request.amount,
            request.cause,
            request.expires_in_seconds,
        )
        return hold_out(hold)

    async def ReleaseHold(self, request: pb.ReleaseHoldRequest, context: Context) -> pb.Hold:
        return hold_out(await self._wallet.release_hold(caller(), request.hold_id))

    async def Grant(self, request: pb.GrantRequest, context: Context) -> pb.Transfer:
        granted = await self._wallet.grant(
            caller(), request.transfer_id, request.player_id, request.amount, request.reason
        )
        return transfer_out(granted)

    async def Freeze(self, request: pb.FreezeRequest, context: Context) -> pb.Balance:
        return balance_out(await self._wallet.freeze(caller(), request.player_id, request.reason))

    async def Unfreeze(self, request: pb.UnfreezeRequest, context: Context) -> pb.Balance:
        return balance_out(await self._wallet.unfreeze(caller(), request.player_id))

    async def ListTableTransfers(
        self, request: pb.ListTableTransfersRequest, context: Context
    ) -> pb.ListTableTransfersResponse:
        moved = await self._wallet.table_transfers(caller(), request.table_id)
        return pb.ListTableTransfersResponse(transfers=[transfer_out(t) for t in moved])


def wallet_service(wallet: WalletApp) -> GrpcService:
    servicer = WalletServicer(wallet)
    return GrpcService(
        SERVICE_NAME, lambda server: pb_grpc.add_WalletServicer_to_server(servicer, server)
    )
