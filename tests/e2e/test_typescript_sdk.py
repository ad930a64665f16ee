"""The TypeScript SDK (clients/typescript) against the real platform (PLAT-1, PLAT-3,
MODE-2): the four services start here as for every end-to-end test, and ``node --test``
runs the SDK's own tests with their addresses in the environment. They play whole Pika
games through the SDK, follow a table across an engine restart, and check the typed
errors of bad input.

Service restarts are asked for by the Node tests over a one-line TCP exchange
(``TAVOLO_TEST_CONTROL``): they send "restart engine" (or "lobby"), this side stops that
service and starts it again on the same port, and answers "restarted".

Node.js 20 and the package's dependencies (``npm ci``, which ``make test`` runs first) are
required: without them this test fails saying how to get them; it never skips.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.lobby.accounts.passwords import fast_passwords
from tavolo.lobby.bootstrap import LobbyOverrides, make_assemble
from tavolo.lobby.context import LobbyConfig
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tests.integration.lobby.harness import settings_for
from tests.integration.lobby.platform import (
    OPERATOR,
    Platform,
    platform_config,
    running_platform,
)

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
# Access tokens live a few seconds, so every game refreshes its session many times over.
ACCESS_TTL_SECONDS = 4
NODE_LIMIT_SECONDS = 420


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "Node.js 20+ and npm are needed for the TypeScript SDK's tests: install them"
            " (apt-get install nodejs npm, or https://nodejs.org/en/download)"
        )
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    major = int(version.stdout.strip().lstrip("v").split(".")[0])
    assert major >= 20, f"Node.js 20+ is needed, found {version.stdout.strip()}"
    assert (PACKAGE / "node_modules" / ".bin" / "tsc").exists(), (
        "the SDK's dependencies are missing: run `npm ci` in clients/typescript (make test does)"
    )
    return node


class Restarts:
    """Stops a service of the running platform and starts it again on the same port, with
    the same settings: what a crash and a restart by the supervisor do."""

    def __init__(self, platform: Platform, settings: Settings, lobby: LobbyConfig) -> None:
        self.platform, self.settings, self.lobby = platform, settings, lobby

    async def restart(self, name: str) -> None:
        services = self.platform.services
        port = services[name].port
        await services[name].stop(0.5)
        if name == "engine":
            services[name] = await start_service(
                "engine", engine_assemble, self.settings, port=port
            )
            return
        addresses = {n: f"127.0.0.1:{s.port}" for n, s in services.items() if n != "lobby"}
        overrides = LobbyOverrides(
            config=self.lobby, passwords=fast_passwords(), run_matchmaker=True, operator=OPERATOR
        )
        services[name] = await start_service(
            "lobby",
            make_assemble(overrides),
            replace(self.settings, addresses=addresses),
            port=port,
        )

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One line per request: "restart engine" or "restart lobby" → "restarted"."""
        try:
            while line := (await reader.readline()).decode().strip():
                verb, _, name = line.partition(" ")
                if verb != "restart" or name not in ("engine", "lobby"):
                    writer.write(b"unknown\n")
                else:
                    await self.restart(name)
                    writer.write(b"restarted\n")
                await writer.drain()
        finally:
            writer.close()


async def test_the_typescript_sdk_plays_against_the_platform(
    database_url: str, nats_url: str, namespace: str
) -> None:
    node = _node()
    shutil.rmtree(PACKAGE / "dist", ignore_errors=True)  # no test left from an older build
    build = await asyncio.create_subprocess_exec(
        str(PACKAGE / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", cwd=PACKAGE
    )
    assert await build.wait() == 0, "the SDK does not build (tsc -p clients/typescript)"
    config = replace(platform_config(), access_ttl_seconds=ACCESS_TTL_SECONDS)
    async with running_platform(
        database_url, nats_url, namespace, config=config, with_leaderboard=True
    ) as platform:
        restarts = Restarts(platform, settings_for(database_url, nats_url, namespace), config)
        control = await asyncio.start_server(restarts.serve, "127.0.0.1", 0)
        async with control:
            control_port = control.sockets[0].getsockname()[1]
            env = {
                **os.environ,
                **{
                    f"TAVOLO_{name.upper()}_ADDRESS": f"127.0.0.1:{service.port}"
                    for name, service in platform.services.items()
                },
                "TAVOLO_TEST_CONTROL": f"127.0.0.1:{control_port}",
                "TAVOLO_TEST_ACCESS_TTL_SECONDS": str(ACCESS_TTL_SECONDS),
                "TAVOLO_TEST_OPERATOR": ":".join(OPERATOR),
            }
            files = sorted(str(p) for p in (PACKAGE / "dist" / "test").glob("*.test.js"))
            assert files, "no compiled tests in clients/typescript/dist/test"
            tests = await asyncio.create_subprocess_exec(
                node, "--test", "--test-concurrency=1", *files,
                cwd=PACKAGE, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            try:
                output, _ = await asyncio.wait_for(tests.communicate(), NODE_LIMIT_SECONDS)
            except TimeoutError:
                tests.kill()
                await tests.wait()
                raise AssertionError(f"node --test ran over {NODE_LIMIT_SECONDS} s") from None
    report = output.decode()
    print(report)  # each test's duration, shown with -s or -rA
    assert tests.returncode == 0, report
    assert "# fail 0" in report and "# pass 0" not in report, report
