/**
 * Whole games through the SDK and the example apps (SDK-1, MODE-2, PLAT-4): a queued Pika
 * game played to FINISHED that the wallet and the leaderboard then show, a friends room
 * whose invitation the acceptor example takes, and sessions kept fresh by refresh-token
 * rotation.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { TableStatus, UnauthenticatedError, receiptOf, type Session } from "../src/index.js";
import { acceptAndPlay } from "../examples/invitation-acceptor.js";
import { playFromQueue } from "../examples/queue-player.js";
import { playSeat } from "../examples/seat.js";
import { ACCESS_TTL_MS, PASSWORD, eventually, newClient, nickname } from "./platform.js";

test("a queued Pika game is played to FINISHED and the wallet and leaderboard see it (SDK-1, MODE-2)", { timeout: 120_000 }, async () => {
  const client = newClient();
  const me = await client.register(nickname("ts"), PASSWORD);
  const { seat, played } = await playFromQueue(client, "pika", 2);

  assert.equal(played.last.status, TableStatus.FINISHED);
  assert.ok(played.actions > 0, "the SDK played the seat");
  const receipt = receiptOf(played.last);
  assert.match(receipt?.logHash ?? "", /^[0-9a-f]{64}$/, "the closing view hands the seat its receipt (AUDIT-3)");
  assert.equal(receipt?.verifyCommand, `tavolo audit verify --receipt ${receipt?.logHash} ${seat.tableId}`);
  const place = played.last.outcome?.places[seat.seat];
  assert.ok(place === 1 || place === 2, `a place for seat ${seat.seat}: ${place}`);
  const cause = `reward:${seat.tableId}:${seat.seat}`;
  await eventually(`the wallet's ${cause}`, async () =>
    (await client.transfers()).some((t) => t.cause === cause && t.amount > 0n),
  );
  await eventually("the leaderboard's count of the game", async () => {
    const pika = (await client.playerStats(me.playerId)).games.find((g) => g.game === "pika");
    return pika !== undefined && pika.games === 1n && pika.places[place - 1] === 1n;
  });
});

test("a friends-room invitation is accepted by the example and both seats play to the end (SDK-1, MODE-2)", { timeout: 120_000 }, async () => {
  const host = newClient();
  const guest = newClient();
  await host.register(nickname("host"), PASSWORD);
  const guestName = nickname("guest");
  await guest.register(guestName, PASSWORD);
  const room = await host.createRoom({ game: "pika", players: 2 });
  let accepted!: () => void;
  const answered = new Promise<void>((resolve) => (accepted = resolve));
  const guestGame = acceptAndPlay(guest, () => accepted());
  await host.invite(room.roomId, guestName);
  await answered;
  const table = await host.startRoom({ roomId: room.roomId });
  const [hostPlayed, guestGot] = await Promise.all([playSeat(host, table.tableId), guestGame]);

  assert.equal(guestGot.invitation.roomId, room.roomId);
  assert.equal(guestGot.seat.tableId, table.tableId);
  for (const played of [hostPlayed, guestGot.played]) {
    assert.equal(played.last.status, TableStatus.FINISHED);
    assert.ok(played.actions > 0);
  }
  assert.deepEqual(hostPlayed.last.outcome?.places, guestGot.played.last.outcome?.places);
});

test("an access token about to expire is refreshed first, with rotation; a used refresh token revokes the login", { timeout: 120_000 }, async () => {
  const sessions: Session[] = [];
  const client = newClient({ onSession: (s) => void sessions.push(s) }); // refreshes 1 s ahead
  const first = await client.register(nickname("fresh"), PASSWORD);
  const expires = first.accessExpiresAt ? timestampMs(first.accessExpiresAt) : 0;
  assert.ok(expires - Date.now() <= ACCESS_TTL_MS, "the platform's short access tokens");
  await sleep(Math.max(0, expires - Date.now() - 500)); // still valid, but about to expire

  await client.balance();
  assert.equal(sessions.length, 2, "refreshed before the call");
  assert.notEqual(client.session?.refreshToken, first.refreshToken, "a new refresh token each time");
  assert.notEqual(client.session?.accessToken, first.accessToken);

  const copy = newClient();
  copy.resume(first); // someone presenting the used token again
  await assert.rejects(copy.refresh(), (error: unknown) => {
    assert.ok(error instanceof UnauthenticatedError);
    assert.match(error.serviceMessage, /used before/);
    return true;
  });
  // The lobby revoked the whole login, so the owner's current token is refused too.
  await assert.rejects(client.refresh(), UnauthenticatedError);
});

test("a call refused for an expired access token is refreshed and sent again (a client clock running late)", { timeout: 120_000 }, async () => {
  const sessions: Session[] = [];
  const client = newClient({ onSession: (s) => void sessions.push(s) });
  const first = await client.register(nickname("late"), PASSWORD);
  const expires = first.accessExpiresAt ? timestampMs(first.accessExpiresAt) : 0;
  await sleep(Math.max(0, expires - Date.now()) + 1_100); // expired, as the lobby counts seconds
  // The app's clock is an hour late: it believes the token is still good.
  client.resume({ ...first, accessExpiresAt: timestampFromMs(Date.now() + 3_600_000) });

  await client.balance(); // refused at first (UNAUTHENTICATED), then refreshed and accepted
  assert.equal(sessions.length, 2);
  assert.notEqual(client.session?.refreshToken, first.refreshToken);
});
