"""Settings from the environment, read once at start-up by each service's composition root.

Every variable is named once here. A bad value stops the process at start with a message
that names the variable, never with a traceback from deep inside a driver.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

SERVICES = ("lobby", "engine", "wallet", "leaderboard")
DEFAULT_GRPC_PORTS = {"lobby": 50051, "engine": 50052, "wallet": 50053, "leaderboard": 50054}
DEFAULT_METRICS_PORTS = {"lobby": 9151, "engine": 9152, "wallet": 9153, "leaderboard": 9154}
# Development-only signing secret: it is in the source, so anyone can sign with it. A
# service refuses it unless told it runs in development (TAVOLO_DEVELOPMENT=1); `tavolo up`
# and deployments set their own (TAVOLO_TOKEN_SECRET).
DEV_TOKEN_SECRET = "tavolo-development-secret-change-me"
# Channels to another service ask for round_robin: a multi-address target
# (``ipv4:h:p1,h:p2``, what `tavolo up --replicas` hands out) then spreads calls over every
# replica and leaves a dead one out; one address behaves as before.
CLIENT_CHANNEL_OPTIONS = (("grpc.lb_policy_name", "round_robin"),)
_YES = ("1", "true", "yes", "on")
_NO = ("", "0", "false", "no", "off")


class SettingsError(Exception):
    """A setting is missing or malformed; the message names the variable and the fix."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a service needs to know about where it runs."""

    database_url: str
    nats_url: str
    namespace: str = "tavolo"
    grpc_host: str = "127.0.0.1"
    grpc_ports: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_GRPC_PORTS))
    metrics_ports: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_METRICS_PORTS))
    log_format: str = "console"
    log_level: str = "info"
    token_secret: str = DEV_TOKEN_SECRET
    development: bool = False
    shutdown_grace_seconds: float = 5.0
    addresses: Mapping[str, str] = field(default_factory=dict)
    # Handled message ids kept this long (beyond the events stream's max_age), pruned this often.
    processed_retention_days: float = 15.0
    prune_interval_seconds: float = 3600.0
    stream_replicas: int = 1
    checkpoint_key: str = ""
    """Hex seed of the Ed25519 key that signs log checkpoints (empty: the development key,
    refused outside development as the development token secret is)."""
    checkpoint_seconds: float = 10.0
    """How often each service publishes a signed checkpoint of its log head."""

    def grpc_address(self, service: str) -> str:
        """Where to reach ``service``: TAVOLO_<SERVICE>_ADDRESS, else its port on this host."""
        if service in self.addresses:
            return self.addresses[service]
        host = "127.0.0.1" if self.grpc_host in ("0.0.0.0", "[::]", "::") else self.grpc_host
        return f"{host}:{self.grpc_ports[service]}"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        database_url = _required_url(env, "TAVOLO_DATABASE_URL", ("postgres", "postgresql"))
        nats_url = _required_url(env, "TAVOLO_NATS_URL", ("nats", "tls"))
        ports = dict(DEFAULT_GRPC_PORTS)
        metrics = dict(DEFAULT_METRICS_PORTS)
        for service in SERVICES:
            ports[service] = _port(env, f"TAVOLO_{service.upper()}_PORT", ports[service])
            metrics[service] = _port(
                env, f"TAVOLO_{service.upper()}_METRICS_PORT", metrics[service]
            )
        log_format = env.get("TAVOLO_LOG_FORMAT", "console")
        if log_format not in ("console", "json"):
            raise SettingsError("TAVOLO_LOG_FORMAT must be 'console' or 'json'")
        addresses = {
            service: env[f"TAVOLO_{service.upper()}_ADDRESS"]
            for service in SERVICES
            if env.get(f"TAVOLO_{service.upper()}_ADDRESS")
        }
        namespace = env.get("TAVOLO_NAMESPACE", "tavolo")
        if not namespace.replace("_", "").isalnum():
            raise SettingsError("TAVOLO_NAMESPACE may hold only letters, digits and '_'")
        return cls(
            database_url=database_url,
            nats_url=nats_url,
            namespace=namespace,
            grpc_host=env.get("TAVOLO_GRPC_HOST", "127.0.0.1"),
            grpc_ports=ports,
            metrics_ports=metrics,
            log_format=log_format,
            log_level=env.get("TAVOLO_LOG_LEVEL", "info").lower(),
            token_secret=env.get("TAVOLO_TOKEN_SECRET") or DEV_TOKEN_SECRET,
            development=_flag(env, "TAVOLO_DEVELOPMENT"),
            shutdown_grace_seconds=float(env.get("TAVOLO_SHUTDOWN_GRACE", "5")),
            addresses=addresses,
            processed_retention_days=_positive(env, "TAVOLO_PROCESSED_RETENTION_DAYS", 15.0),
            prune_interval_seconds=_positive(env, "TAVOLO_PRUNE_INTERVAL_SECONDS", 3600.0),
            stream_replicas=_stream_replicas(env),
            checkpoint_key=env.get("TAVOLO_CHECKPOINT_KEY", ""),
            checkpoint_seconds=float(env.get("TAVOLO_CHECKPOINT_SECONDS", "10")),
        )


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where `tavolo up` keeps the embedded servers' data (kept across restarts)."""
    env = os.environ if environ is None else environ
    return Path(env.get("TAVOLO_DATA_DIR", ".data")).resolve()


def _required_url(env: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str:
    value = env.get(name, "").strip()
    if not value:
        raise SettingsError(f"{name} is not set; set it to a {schemes[0]}:// URL")
    parsed = urlparse(value)
    if parsed.scheme not in schemes:
        raise SettingsError(
            f"{name}={value!r} is not a {' or '.join(s + '://' for s in schemes)} URL"
        )
    return value


def token_secret_problem(settings: Settings) -> str | None:
    """Why ``settings`` must not sign tokens, or None: the public development secret is
    refused outside development, and any secret shorter than HS256's 32 bytes always."""
    if len(settings.token_secret.encode()) < 32:
        return "TAVOLO_TOKEN_SECRET must be at least 32 bytes long (an HS256 key of 256 bits)"
    if settings.token_secret == DEV_TOKEN_SECRET and not settings.development:
        return (
            "TAVOLO_TOKEN_SECRET is not set, and the development secret in the source would let"
            " anyone sign tokens: set TAVOLO_TOKEN_SECRET (or TAVOLO_DEVELOPMENT=1 on a"
            " developer's machine)"
        )
    return None


CHECKPOINT_KEY_HEX = 64
"""An Ed25519 seed is 32 bytes: 64 hex digits."""


def checkpoint_key_problem(settings: Settings) -> str | None:
    """Why ``settings`` must not sign log checkpoints, or None: the development key's seed
    is in the source, so a checkpoint signed with it proves nothing (anyone could have
    signed a rewritten log's); refused outside development, and a malformed seed always."""
    key = settings.checkpoint_key
    if not key:
        if settings.development:
            return None
        return (
            "TAVOLO_CHECKPOINT_KEY is not set, and the development key in the source would let"
            " anyone sign the log's checkpoints: set TAVOLO_CHECKPOINT_KEY to 32 random bytes in"
            " hex (`openssl rand -hex 32`; `tavolo up` keeps one of its own), or"
            " TAVOLO_DEVELOPMENT=1 on a developer's machine"
        )
    try:
        seed = bytes.fromhex(key)
    except ValueError:
        seed = b""
    if len(key) != CHECKPOINT_KEY_HEX or len(seed) != CHECKPOINT_KEY_HEX // 2:
        return f"TAVOLO_CHECKPOINT_KEY must be {CHECKPOINT_KEY_HEX} hex digits (an Ed25519 seed)"
    return None


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in _YES:
        return True
    if raw in _NO:
        return False
    raise SettingsError(f"{name} must be 1 or 0, not {raw!r}")


def _port(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None:
        return default
    try:
        port = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a port number, not {raw!r}") from None
    if not 0 <= port <= 65535:
        raise SettingsError(f"{name} must be between 0 and 65535, not {port}")
    return port


def _positive(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if not value > 0 or value == float("inf"):
        raise SettingsError(f"{name} must be a number more than 0, not {raw}")
    return value


def _stream_replicas(env: Mapping[str, str]) -> int:
    """TAVOLO_NATS_REPLICAS: how many NATS nodes keep each copy of the events stream.

    1 on one machine; 3 on a NATS cluster of three or more nodes, so the stream survives
    losing a node. JetStream allows 1 to 5.
    """
    raw = env.get("TAVOLO_NATS_REPLICAS", "1")
    if raw not in ("1", "2", "3", "4", "5"):
        raise SettingsError(f"TAVOLO_NATS_REPLICAS must be a whole number from 1 to 5, not {raw!r}")
    return int(raw)
