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
# Development-only signing secret; `tavolo up` and production deployments set their own.
DEV_TOKEN_SECRET = "tavolo-development-secret-change-me"


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
    shutdown_grace_seconds: float = 5.0
    addresses: Mapping[str, str] = field(default_factory=dict)
    stream_replicas: int = 1
    checkpoint_key: str = ""
    """Hex seed of the Ed25519 key that signs log checkpoints (empty: the development key)."""
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
            token_secret=env.get("TAVOLO_TOKEN_SECRET", DEV_TOKEN_SECRET),
            shutdown_grace_seconds=float(env.get("TAVOLO_SHUTDOWN_GRACE", "5")),
            addresses=addresses,
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


def _stream_replicas(env: Mapping[str, str]) -> int:
    """TAVOLO_NATS_REPLICAS: how many NATS nodes keep each copy of the events stream.

    1 on one machine; 3 on a NATS cluster of three or more nodes, so the stream survives
    losing a node. JetStream allows 1 to 5.
    """
    raw = env.get("TAVOLO_NATS_REPLICAS", "1")
    if raw not in ("1", "2", "3", "4", "5"):
        raise SettingsError(f"TAVOLO_NATS_REPLICAS must be a whole number from 1 to 5, not {raw!r}")
    return int(raw)
