/**
 * The installation id: a random id an app keeps for as long as it is installed, sent as
 * the `x-tavolo-installation` header so moderators can tell accounts played from the same
 * device (the lobby records it with each session, PCG-3).
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** The header the lobby reads the installation id from. */
export const INSTALLATION_HEADER = "x-tavolo-installation";
const VALID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A fresh installation id (a random UUID). */
export function newInstallationId(): string {
  return randomUUID();
}

/** Whether the lobby accepts `id` as an installation id (1-100 of `A-Za-z0-9._:-`). */
export function isInstallationId(id: string): boolean {
  return VALID.test(id);
}

/**
 * The installation id kept in `file`: read when the file holds one, else made once and
 * written there, so every start of the app sends the same id.
 */
export async function loadInstallationId(file: string): Promise<string> {
  try {
    const kept = (await readFile(file, "utf8")).trim();
    if (isInstallationId(kept)) {
      return kept;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw error;
    }
  }
  const made = newInstallationId();
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${made}\n`, { mode: 0o600 });
  return made;
}
