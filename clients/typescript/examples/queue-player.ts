/**
 * A command-line player: registers (or logs in), joins the online queue for Pika and
 * plays its seat to the end with random legal actions, then prints the places.
 *
 *   node dist/examples/queue-player.js NICKNAME PASSWORD [--login]
 *
 * The services' addresses come from TAVOLO_<SERVICE>_ADDRESS (default: `make run`'s).
 * The installation id is kept in ~/.tavolo-ts/installation.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TavoloClient, TableStatus, loadInstallationId, receiptOf, type TableAssignment } from "../src/index.js";
import { addressesFromEnv } from "./env.js";
import { playSeat, type Played } from "./seat.js";

/** What one queued game came to. */
export interface QueuedGame {
  seat: TableAssignment;
  played: Played;
}

/**
 * Join the online queue for `game` at a table of `players` seats and play the seat the
 * lobby gives (bots fill seats nobody takes) until the table is over.
 */
export async function playFromQueue(client: TavoloClient, game = "pika", players = 2): Promise<QueuedGame> {
  const stop = new AbortController();
  // Follow the lobby before joining, so the seating cannot be missed.
  const seated = client.seated({ signal: stop.signal });
  seated.catch(() => undefined); // awaited below; a failed join must not leave it unhandled
  try {
    await client.joinQueue({ game, players });
    const seat = await seated;
    return { seat, played: await playSeat(client, seat.tableId) };
  } finally {
    stop.abort();
  }
}

async function main(argv: string[]): Promise<number> {
  const [nickname, password, flag] = argv;
  if (nickname === undefined || password === undefined) {
    console.error("usage: queue-player NICKNAME PASSWORD [--login]");
    return 2;
  }
  const installationId = await loadInstallationId(join(homedir(), ".tavolo-ts", "installation"));
  const client = new TavoloClient({ addresses: addressesFromEnv(), installationId });
  const session = flag === "--login" ? await client.login(nickname, password) : await client.register(nickname, password);
  console.log(`logged in as ${session.nickname}; waiting for a Pika table`);
  const { seat, played } = await playFromQueue(client);
  if (played.last.status !== TableStatus.FINISHED) {
    console.log(`table ${seat.tableId} ended without a result`);
    return 1;
  }
  const names = played.last.seats.map((s) => s.nickname || `bot ${s.seat}`);
  console.log(`table ${seat.tableId} finished after ${played.actions} moves of yours:`);
  const places = played.last.outcome?.places ?? [];
  [...places.keys()]
    .sort((a, b) => (places[a] ?? 0) - (places[b] ?? 0))
    .forEach((seatIndex) => console.log(`  ${places[seatIndex]}. ${names[seatIndex]}`));
  const receipt = receiptOf(played.last);
  if (receipt !== undefined) {
    console.log(`your receipt, the hash of the log as the table ended: ${receipt.logHash}`);
    console.log(`check the stored log against it: ${receipt.verifyCommand}`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(String(error));
      process.exit(1);
    },
  );
}
