/**
 * Services restart while an app follows them (PLAT-3, PLAT-4): the SDK's table stream
 * comes back by itself from the last version it yielded, so the seat sees every version
 * once, and an action sent while the engine is down is retried until it is applied; the
 * lobby's updates come back after a lobby restart without repeating what was seen.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TableStatus } from "../src/index.js";
import { anyLegal, playSeat } from "../examples/seat.js";
import { PASSWORD, newClient, nickname, restart } from "./platform.js";

test("the table's views resume after an engine restart with no version lost or seen twice (SDK-1, PLAT-3)", { timeout: 120_000 }, async () => {
  const client = newClient();
  await client.register(nickname("restart"), PASSWORD);
  const table = await client.playVersusComputer({ game: "pika", players: 2 });
  let restarted: Promise<void> | undefined;
  let resumed = 0;
  const played = await playSeat(client, table.tableId, {
    choose: (view) => {
      // From the third version on, at the seat's turn: the engine goes down as it acts.
      if (restarted === undefined && view.version >= 3n) {
        restarted = restart("engine");
      }
      return anyLegal(view);
    },
    onResumed: () => (resumed += 1),
  });
  await restarted;

  assert.ok(restarted !== undefined, "the engine was restarted during the game");
  assert.ok(resumed >= 1, "the table's stream was lost and resumed");
  assert.equal(played.last.status, TableStatus.FINISHED);
  const first = played.versions[0] ?? 0n;
  const expected = played.versions.map((_, index) => first + BigInt(index));
  assert.deepEqual(played.versions, expected, "every version once, in order");
  const final = await client.getTable(table.tableId);
  assert.equal(final.version, played.last.version, "the last view is the table's last version");
});

test("the lobby's updates resume after a lobby restart, nothing repeated (SDK-1, PLAT-4)", { timeout: 120_000 }, async () => {
  const host = newClient();
  const guest = newClient();
  await host.register(nickname("lhost"), PASSWORD);
  const guestName = nickname("lguest");
  await guest.register(guestName, PASSWORD);
  const stop = new AbortController();
  let resumed = 0;
  const invitations: string[] = [];
  const arrived: Array<() => void> = [];
  const following = (async () => {
    for await (const update of guest.lobbyUpdates({ signal: stop.signal, onResumed: () => (resumed += 1) })) {
      if (update.update.case === "invitation") {
        invitations.push(update.update.value.roomId);
        arrived.shift()?.();
      }
    }
  })();
  const next = () => new Promise<void>((resolve) => arrived.push(resolve));

  const firstArrived = next();
  const first = await host.createRoom({ game: "pika", players: 2 });
  await host.invite(first.roomId, guestName);
  await firstArrived;
  await restart("lobby");
  const secondArrived = next();
  const second = await host.createRoom({ game: "pika", players: 2 });
  await host.invite(second.roomId, guestName);
  await secondArrived;
  stop.abort();
  await following;

  assert.ok(resumed >= 1, "the lobby's stream was lost and resumed");
  assert.deepEqual(invitations, [first.roomId, second.roomId], "each invitation once, in order");
});
