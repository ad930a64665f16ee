/**
 * Bad input through the SDK (SDK-1): every refusal comes out as the typed error of its
 * gRPC status with the service's own message and its machine-readable reason, domain and
 * metadata (API-1), and changes nothing.
 */
import assert from "node:assert/strict";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { test } from "node:test";
import {
  AbortedError,
  AlreadyExistsError,
  DeadlineExceededError,
  TavoloClient,
  InvalidArgumentError,
  PermissionDeniedError,
  TavoloError,
  UnauthenticatedError,
  statusName,
  Code,
} from "../src/index.js";
import { PASSWORD, newClient, nickname } from "./platform.js";

/**
 * `call` fails with an error of `Class` whose service message matches `message`, with the
 * refusal's `reason` in domain tavolo.v1 and at least the `metadata` given.
 */
async function refused(
  call: Promise<unknown>,
  Class: new (...args: never[]) => TavoloError,
  message: RegExp,
  reason: string,
  metadata: Record<string, string> = {},
) {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof Class, `expected ${Class.name}, got ${String(error)}`);
    assert.match(error.serviceMessage, message);
    assert.equal(error.status, statusName(error.code));
    assert.equal(error.reason, reason);
    assert.equal(error.domain, reason ? "tavolo.v1" : "");
    for (const [key, value] of Object.entries(metadata)) {
      assert.equal(error.metadata[key], value, `metadata ${key} of ${reason}`);
    }
    return true;
  });
}

test("an empty action, a stale version and another player's table are typed errors with the service's message", { timeout: 120_000 }, async () => {
  const owner = newClient();
  await owner.register(nickname("owner"), PASSWORD);
  const other = newClient();
  await other.register(nickname("other"), PASSWORD);
  const table = await owner.playVersusComputer({ game: "pika", players: 2 });
  // The seat's turn at version 2 or later, so that an older version (not 0: "don't
  // check") exists; earlier turns are played.
  let view = await owner.getTable(table.tableId);
  while (view.legalActions.length === 0 || view.version < 2n) {
    const action = view.legalActions[0];
    if (action !== undefined) {
      await owner.act(table.tableId, action, view.version);
    }
    view = await owner.getTable(table.tableId);
  }
  const before = view.version;

  await refused(owner.act(table.tableId, {}, view.version), InvalidArgumentError, /needs a kind/, "ACTION_MALFORMED");
  const legal = view.legalActions[0];
  assert.ok(legal !== undefined);
  const table_id = table.tableId;
  await refused(owner.act(table.tableId, legal, before - 1n), AbortedError, /moved on/, "TABLE_MOVED_ON", {
    table_id,
    version: String(before),
    expected_version: String(before - 1n),
  });
  await refused(owner.act(table.tableId, legal, before + 10n), InvalidArgumentError, /has no version/, "VERSION_UNKNOWN", {
    table_id,
    version: String(before),
  });
  await refused(other.act(table.tableId, legal, before), PermissionDeniedError, /no seat at table/, "NO_SEAT", { table_id });
  assert.equal((await owner.getTable(table.tableId)).version, before, "nothing was applied");

  // The same request id twice: the engine applies it once and answers the same.
  const requestId = `once-${before}`;
  const applied = await owner.act(table.tableId, legal, before, { requestId });
  const again = await owner.act(table.tableId, legal, before, { requestId });
  assert.equal(again.view?.version, applied.view?.version);
});

test("accounts: a taken nickname, a wrong password and no session are typed errors", { timeout: 120_000 }, async () => {
  const name = nickname("taken");
  await newClient().register(name, PASSWORD);
  await refused(newClient().register(name.toUpperCase(), PASSWORD), AlreadyExistsError, /taken/, "NICKNAME_TAKEN", {
    nickname: name.toUpperCase(),
  });
  await refused(newClient().login(name, "not-the-password"), UnauthenticatedError, /password is wrong/, "LOGIN_FAILED");
  // Refused by the SDK itself, before any call: no service, so no reason.
  await refused(newClient().balance(), UnauthenticatedError, /log in/, "");
});

test("a call's deadline ends a call nobody answers with DEADLINE_EXCEEDED", { timeout: 120_000 }, async () => {
  // A port that accepts connections and never answers: the call can only end by its deadline.
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as AddressInfo;
  const address = `127.0.0.1:${port}`;
  const client = new TavoloClient({
    addresses: { lobby: address, engine: address, wallet: address, leaderboard: address },
    deadlineMs: 3_600_000, // so only the call's own deadline can end it
  });
  try {
    const error = await client.login("nobody", PASSWORD, { deadlineMs: 300 }).catch((e: unknown) => e);
    assert.ok(error instanceof DeadlineExceededError, String(error));
    assert.equal(error.code, Code.DeadlineExceeded);
  } finally {
    silent.close();
    for (const socket of sockets) socket.destroy();
  }
});
