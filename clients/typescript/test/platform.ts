/**
 * What the SDK's tests share: the platform's addresses and the restart switch, both given
 * by tests/e2e/test_typescript_sdk.py, which starts the platform and runs these tests.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { TavoloClient, type ClientOptions } from "../src/index.js";
import { addressesFromEnv } from "../examples/env.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through tests/e2e/test_typescript_sdk.py`);
  }
  return value;
}

required("TAVOLO_LOBBY_ADDRESS");

/** A client of the platform under test; access tokens are refreshed a second before expiry. */
export function newClient(options: Partial<ClientOptions> = {}): TavoloClient {
  return new TavoloClient({ addresses: addressesFromEnv(), refreshBeforeMs: 1_000, ...options });
}

/** Letters that spell no word the lobby refuses: no vowels, nor anything that reads as
 * one (hex did: "guest_af1..." reads as "staff", "a55" as a vulgar word). */
const NAME_LETTERS = "bcdghjkpqvwxz";

/** A nickname nobody has taken yet. */
export function nickname(prefix: string): string {
  const suffix = Array.from(randomBytes(8), (byte) => NAME_LETTERS[byte % NAME_LETTERS.length]);
  return `${prefix}_${suffix.join("")}`;
}

export const PASSWORD = "sdk-secret-1";

/** The platform's operator account: nickname and password. */
export function operator(): [string, string] {
  const [name, ...rest] = required("TAVOLO_TEST_OPERATOR").split(":");
  return [name ?? "", rest.join(":")];
}

/** How long the lobby's access tokens live on the platform under test. */
export const ACCESS_TTL_MS = Number(required("TAVOLO_TEST_ACCESS_TTL_SECONDS")) * 1000;

/** Stop a service and start it again on the same port; resolves once it is back. */
export async function restart(service: "engine" | "lobby"): Promise<void> {
  const [host, port] = required("TAVOLO_TEST_CONTROL").split(":");
  const socket = connect(Number(port), host);
  socket.setEncoding("utf8");
  let answer = "";
  socket.write(`restart ${service}\n`);
  for await (const chunk of socket) {
    answer += String(chunk);
    if (answer.includes("\n")) {
      break;
    }
  }
  socket.destroy();
  if (answer.trim() !== "restarted") {
    throw new Error(`the platform did not restart the ${service}: ${answer}`);
  }
}

/** `check` until it returns true (the platform's consumers are asynchronous). */
export async function eventually(what: string, check: () => Promise<boolean>, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await check()) {
      return;
    }
    await sleep(100);
  }
  throw new Error(`never saw ${what}`);
}
