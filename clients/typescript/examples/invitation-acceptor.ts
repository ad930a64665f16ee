/**
 * Accepts a friends-room invitation: logs in, waits for an invitation, accepts it, waits
 * for the host to start the room and plays its seat to the end.
 *
 *   node dist/examples/invitation-acceptor.js NICKNAME PASSWORD
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TavoloClient, loadInstallationId, type Invitation, type TableAssignment } from "../src/index.js";
import { addressesFromEnv } from "./env.js";
import { playSeat, type Played } from "./seat.js";

/** The invitation accepted and what came of it. */
export interface AcceptedGame {
  invitation: Invitation;
  seat: TableAssignment;
  played: Played;
}

/**
 * Wait for the next invitation, accept it, and play the table its room starts. `onAccepted`
 * is told once the lobby has the answer (so a host can start the room).
 */
export async function acceptAndPlay(
  client: TavoloClient,
  onAccepted: (invitation: Invitation) => void = () => undefined,
): Promise<AcceptedGame> {
  const stop = new AbortController();
  try {
    const invitation = await client.invited({ signal: stop.signal });
    const seated = client.seated({ signal: stop.signal });
    seated.catch(() => undefined); // awaited below; a refused answer must not leave it unhandled
    await client.respondToInvitation(invitation, true);
    onAccepted(invitation);
    const seat = await seated;
    return { invitation, seat, played: await playSeat(client, seat.tableId) };
  } finally {
    stop.abort();
  }
}

async function main(argv: string[]): Promise<number> {
  const [nickname, password] = argv;
  if (nickname === undefined || password === undefined) {
    console.error("usage: invitation-acceptor NICKNAME PASSWORD");
    return 2;
  }
  const installationId = await loadInstallationId(join(homedir(), ".tavolo-ts", "installation"));
  const client = new TavoloClient({ addresses: addressesFromEnv(), installationId });
  await client.login(nickname, password);
  console.log(`logged in as ${nickname}; waiting for an invitation`);
  const { invitation, seat, played } = await acceptAndPlay(client, (i) =>
    console.log(`accepted ${i.hostNickname}'s invitation to ${i.game}; waiting for the start`),
  );
  console.log(`table ${seat.tableId} (${invitation.game}) over after ${played.actions} moves of yours`);
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
