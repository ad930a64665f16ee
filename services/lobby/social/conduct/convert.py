"""Reports between domain and protobuf (PCG-3)."""

from __future__ import annotations

from datetime import datetime

from google.protobuf.timestamp_pb2 import Timestamp

from tavolo.lobby.social.conduct.collusion_signals import PairSignals
from tavolo.lobby.social.conduct.reports_store import ChatLine, Report
from tavolo.v1 import lobby_pb2


def _timestamp(moment: datetime | None) -> Timestamp | None:
    if moment is None:
        return None
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def receipt(found: Report) -> lobby_pb2.ReportReceipt:
    state = lobby_pb2.REPORT_STATE_HANDLED if found.handled else lobby_pb2.REPORT_STATE_RECEIVED
    return lobby_pb2.ReportReceipt(
        report_id=found.report_id, state=state, filed_at=_timestamp(found.filed_at)
    )


def _line(line: ChatLine) -> lobby_pb2.EvidenceLine:
    return lobby_pb2.EvidenceLine(
        message_id=line.message_id,
        sender_id=line.sender_id,
        sender_nickname=line.sender_nickname,
        text=line.text,
        original_text=line.original_text or "",
        sent_at=_timestamp(line.sent_at),
    )


def report(found: Report) -> lobby_pb2.Report:
    return lobby_pb2.Report(
        report_id=found.report_id,
        reporter_id=found.reporter_id,
        player_id=found.player_id or "",
        message_id=found.message_id or "",
        table_id=found.table_id or "",
        reason=found.reason,
        chat=[_line(line) for line in found.chat_lines],
        log_ref=found.log_ref,
        filed_at=_timestamp(found.filed_at),
        resolved_by=found.resolved_by or "",
        resolved_at=_timestamp(found.resolved_at),
        sanction_id=found.sanction_id or "",
        note=found.note or "",
        reporter_nickname=found.reporter_nickname,
        player_nickname=found.player_nickname,
        case_id=found.case_id,
        case_count=found.case_count,
    )


def collusion_pair(found: PairSignals) -> lobby_pb2.CollusionPair:
    return lobby_pb2.CollusionPair(
        player_ids=list(found.players),
        score=found.score,
        signals=[
            lobby_pb2.CollusionSignal(
                kind=s.kind,
                score=s.score,
                summary=s.summary,
                table_ids=list(s.tables),
                audit_commands=[f"tavolo audit --table {t}" for t in s.tables],
            )
            for s in found.signals
        ],
    )
