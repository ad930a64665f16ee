"""The lobby: accounts and unique nicknames, sessions, rooms and invitations, matchmaking
with bot fill, stake tables, chat and sanctions.

Layout: ``nicknames``, ``sanctions``, ``tables``, ``rooms`` and ``matchmaking`` are pure
rules; ``app`` and the use-case modules (``accounts``, ``play``, ``queue``,
``matchmaker``, ``chat``, ``moderation``, ``watch``) decide; the ``*_store`` modules are
the SQL; ``grpc_api``, ``convert``, ``consumers``, ``updates`` and ``clients`` translate;
``bootstrap`` wires it all at start-up.
"""
