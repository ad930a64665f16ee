/**
 * The installation id (PCG-3): kept in a file across runs, and sent by the SDK on every
 * call, so two accounts played from one installation show up to moderators as a pair
 * with a `same_installation` signal.
 */
import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Role, loadInstallationId } from "../src/index.js";
import { PASSWORD, eventually, newClient, nickname, operator } from "./platform.js";

test("two accounts from one installation are paired by the lobby's signals (PCG-3)", { timeout: 120_000 }, async () => {
  const file = join(await mkdtemp(join(tmpdir(), "tavolo-sdk-")), "installation");
  const installationId = await loadInstallationId(file);
  assert.equal(await loadInstallationId(file), installationId, "the same id at every start");
  const one = newClient({ installationId: await loadInstallationId(file) });
  const other = newClient({ installationId: await loadInstallationId(file) });
  const a = await one.register(nickname("phone_a"), PASSWORD);
  const b = await other.register(nickname("phone_b"), PASSWORD);
  const elsewhere = await newClient().register(nickname("phone_c"), PASSWORD);

  const [name, password] = operator();
  const moderator = newClient();
  const staff = await moderator.login(name, password);
  await moderator.services.lobby.setRoles(
    { playerId: staff.playerId, roles: [Role.OPERATOR, Role.MODERATOR] },
    await moderator.callOptions(),
  );
  await moderator.refresh(); // the roles are read afresh at a refresh
  const pairOf = (ids: string[]) => [...ids].sort().join(" ");
  let kinds: string[] = [];
  await eventually("the pair's same_installation signal", async () => {
    const found = await moderator.services.lobby.listCollusionSignals({ limit: 500 }, await moderator.callOptions());
    const pair = found.pairs.find((p) => pairOf(p.playerIds) === pairOf([a.playerId, b.playerId]));
    kinds = pair?.signals.map((s) => s.kind) ?? [];
    return kinds.includes("same_installation");
  });
  const found = await moderator.services.lobby.listCollusionSignals({ limit: 500 }, await moderator.callOptions());
  const strangers = found.pairs.filter((p) => p.playerIds.includes(elsewhere.playerId));
  assert.ok(
    strangers.every((p) => !p.signals.some((s) => s.kind === "same_installation")),
    "another installation is not paired",
  );
});
