"""``tavolo rating [GAME]`` and ``tavolo rating top GAME``: skill ratings (RATE-1).

Without a game, the player's rating in every game they are rated in; with one, that
rating and its latest rated tables (before, after, table). ``top`` lists a game's
highest ratings. The shown rating is mu - 3 sigma (never below 0), marked provisional
until 10 rated tables.
"""

from __future__ import annotations

import argparse
from typing import Any

from tavolo.cli import session as sessions
from tavolo.cli.i18n import _, ngettext
from tavolo.v1 import common_pb2, leaderboard_pb2, leaderboard_pb2_grpc


def register(subparsers: Any) -> None:
    rating = subparsers.add_parser(
        "rating",
        help=_("skill ratings: yours (`rating [GAME]`) or a game's best (`rating top GAME`)"),
    )
    rating.add_argument("words", nargs="*", metavar="GAME | top GAME")
    rating.add_argument("--as", dest="as_nick", help=_("which saved login to use"))
    rating.add_argument("--player", default="", help=_("another player's id (default: you)"))
    rating.add_argument("--size", type=int, default=10, help=_("rows to show (default 10)"))
    rating.set_defaults(handler=_rating)


def _board() -> leaderboard_pb2_grpc.LeaderboardStub:
    return leaderboard_pb2_grpc.LeaderboardStub(sessions.channel("leaderboard"))


def rating_text(r: leaderboard_pb2.GameRating) -> str:
    mark = " " + _("provisional") if r.provisional else ""
    tables = ngettext("{n} rated table", "{n} rated tables", r.rated_tables).format(
        n=r.rated_tables
    )
    return f"{r.rating:6.1f}{mark}  (mu {r.mu:.2f}, sigma {r.sigma:.2f}, {tables})"


def ratings_lines(found: leaderboard_pb2.PlayerRatings) -> list[str]:
    return [f"{r.game:<12} {rating_text(r)}" for r in found.ratings]


def history_lines(page: leaderboard_pb2.GetRatingHistoryResponse) -> list[str]:
    return [
        f"{c.finished_at.ToDatetime():%Y-%m-%d %H:%M}  {c.before.rating:6.1f} -> "
        f"{c.after.rating:6.1f}  " + _("table {table}").format(table=c.table_id)
        for c in page.changes
    ]


def top_lines(page: leaderboard_pb2.GetTopRatingsResponse) -> list[str]:
    return [f"{e.rank:>4}. {e.player_id:<36} {rating_text(e.rating)}" for e in page.entries]


def _rating(args: argparse.Namespace) -> int:
    words: list[str] = list(args.words)
    if len(words) > 2 or (words[:1] == ["top"] and len(words) != 2):
        print(_("usage: tavolo rating [GAME] --as NICK, or tavolo rating top GAME"))
        return 2

    def run() -> None:
        saved = sessions.load(args.as_nick)
        board = _board()
        page = common_pb2.PageRequest(page_size=args.size)
        if words[:1] == ["top"]:
            top = board.GetTopRatings(
                leaderboard_pb2.GetTopRatingsRequest(game=words[1], page=page),
                metadata=saved.metadata(),
            )
            print(
                "\n".join(top_lines(top))
                or _("nobody is rated in {game} yet").format(game=words[1])
            )
            return
        game = words[0] if words else ""
        found = board.GetPlayerRatings(
            leaderboard_pb2.GetPlayerRatingsRequest(player_id=args.player, game=game),
            metadata=saved.metadata(),
        )
        print("\n".join(ratings_lines(found)))
        if game:
            history = board.GetRatingHistory(
                leaderboard_pb2.GetRatingHistoryRequest(
                    player_id=args.player, game=game, page=page
                ),
                metadata=saved.metadata(),
            )
            print("\n".join(history_lines(history)))

    return sessions.run_call(run)
