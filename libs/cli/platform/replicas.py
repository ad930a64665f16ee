"""Several processes per service under ``tavolo up --replicas engine=2,wallet=2``.

As Kubernetes runs a Deployment's pods, each replica is a process of its own with its own
gRPC port (and metrics port, or metrics off), supervised and restarted on its own. The
first replica keeps the service's configured ports; the others get free ports, chosen
once so a restarted replica comes back where its clients look for it.

Clients need one address per service. Rather than a proxy in front (one more process to
keep alive, and a single point of failure the replicas exist to remove), they get gRPC's
own multi-address target, ``ipv4:127.0.0.1:50052,127.0.0.1:50152``: the services' channels
ask for ``round_robin`` (``servicekit.settings.CLIENT_CHANNEL_OPTIONS``), so calls spread
over the replicas and a dead one is left out until it answers again, as a Kubernetes
Service does.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass


class ReplicasError(ValueError):
    """``--replicas`` is malformed; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Replica:
    """One process of a service: the name the console and its log file use, its ports."""

    name: str
    service: str
    port: int
    metrics_port: int


def parse_replicas(text: str, services: tuple[str, ...]) -> dict[str, int]:
    """``engine=2,wallet=3`` as counts per service (1 for those not named)."""
    counts = dict.fromkeys(services, 1)
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        service, _, raw = part.partition("=")
        if service not in services:
            raise ReplicasError(f"--replicas names {service!r}; known: {', '.join(services)}")
        if not raw.isdigit() or not 1 <= int(raw) <= 16:
            raise ReplicasError(f"--replicas {service}={raw!r}: give a count from 1 to 16")
        counts[service] = int(raw)
    return counts


def plan_replicas(
    services: list[str],
    counts: Mapping[str, int],
    grpc_ports: Mapping[str, int],
    metrics_ports: Mapping[str, int],
    free_port: Callable[[], int],
) -> list[Replica]:
    """Every process to start: one name and port pair per replica.

    A service run once keeps its plain name (``engine``, ``engine.log``); replicas are
    ``engine-1``, ``engine-2``. Metrics off for the service (port 0) stays off for all.
    """
    planned: list[Replica] = []
    for service in services:
        count = counts.get(service, 1)
        for index in range(count):
            name = service if count == 1 else f"{service}-{index + 1}"
            port = grpc_ports[service] if index == 0 else free_port()
            metrics = metrics_ports[service]
            if index and metrics:
                metrics = free_port()
            planned.append(Replica(name, service, port, metrics))
    return planned


def dial_host(grpc_host: str) -> str:
    """The IPv4 address clients dial for services bound to ``grpc_host``: gRPC's
    multi-address ``ipv4:`` target takes addresses, not names."""
    if grpc_host in ("0.0.0.0", "localhost", ""):
        return "127.0.0.1"
    try:
        return str(ipaddress.IPv4Address(grpc_host))
    except ValueError:
        raise ReplicasError(
            f"--replicas needs TAVOLO_GRPC_HOST to be an IPv4 address, not {grpc_host!r}"
        ) from None


def client_targets(replicas: list[Replica], host: str) -> dict[str, str]:
    """The one target per service that reaches all of its replicas (see module docs)."""
    ports: dict[str, list[int]] = {}
    for replica in replicas:
        ports.setdefault(replica.service, []).append(replica.port)
    return {
        service: ",".join(f"{host}:{p}" for p in found)
        if len(found) == 1
        else "ipv4:" + ",".join(f"{host}:{p}" for p in found)
        for service, found in ports.items()
    }


def replica_env(
    replica: Replica, base: Mapping[str, str], targets: Mapping[str, str]
) -> dict[str, str]:
    """The environment of one replica: its own ports, and every service's shared target."""
    env = dict(base)
    upper = replica.service.upper()
    env[f"TAVOLO_{upper}_PORT"] = str(replica.port)
    env[f"TAVOLO_{upper}_METRICS_PORT"] = str(replica.metrics_port)
    for service, target in targets.items():
        env.setdefault(f"TAVOLO_{service.upper()}_ADDRESS", target)
    return env
