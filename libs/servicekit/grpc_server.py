"""A ``grpc.aio`` server with health, reflection and the service interceptor installed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tavolo.servicekit.auth import TokenSigner
from tavolo.servicekit.interceptors import ErrorMap, ServiceInterceptor
from tavolo.servicekit.revocation import Revocations
from tavolo.servicekit.tracing import server_interceptors


@dataclass(frozen=True, slots=True)
class GrpcService:
    """One servicer: its full name (``tavolo.v1.Engine``) and how to add it to a server."""

    full_name: str
    add_to_server: Callable[[grpc.aio.Server], None]
    public_methods: frozenset[str] = field(default_factory=frozenset)


@dataclass
class RunningServer:
    """A started server; ``port`` is the one bound (useful with port 0)."""

    server: grpc.aio.Server
    health: health.aio.HealthServicer
    port: int
    names: tuple[str, ...]

    async def stop(self, grace: float) -> None:
        """Report NOT_SERVING first so load balancers drain us, then stop with ``grace``."""
        for name in (*self.names, ""):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        await self.server.stop(grace)


async def start_grpc_server(
    label: str,
    services: Sequence[GrpcService],
    signer: TokenSigner,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    extra_errors: ErrorMap | None = None,
    revocations: Revocations | None = None,
) -> RunningServer:
    """Build, bind and start the server; every service reports SERVING once it is up."""
    public = frozenset(m for s in services for m in s.public_methods)
    server = grpc.aio.server(
        interceptors=[
            *server_interceptors(),
            ServiceInterceptor(
                label,
                signer,
                public_methods=public,
                extra_errors=extra_errors,
                revocations=revocations,
            ),
        ],
        options=[("grpc.so_reuseport", 0)],
    )
    for service in services:
        service.add_to_server(server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = tuple(s.full_name for s in services)
    reflection.enable_server_reflection(
        (
            *names,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}: the port is taken or not allowed")
    await server.start()
    for name in (*names, ""):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    return RunningServer(server, health_servicer, bound, names)
