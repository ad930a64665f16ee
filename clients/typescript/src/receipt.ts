import type { TableView } from "./gen/tavolo/v1/engine_pb.js";

/** What a player keeps when a table ends (AUDIT-3): the hash of the log as the closing
 * view handed it to every seat. Whoever holds it can later show that the stored log is
 * the one that was played, even if the whole chain were rewritten. */
export interface Receipt {
  /** The table the receipt is for. */
  tableId: string;
  /** The log hash of the closing view (lowercase hex SHA-256). */
  logHash: string;
  /** The command an auditor or the player runs to hold the stored log to the receipt. */
  verifyCommand: string;
}

/** The receipt a closing view carries, or `undefined` for a view of a table still in play. */
export function receiptOf(view: TableView): Receipt | undefined {
  if (view.logHash === "") {
    return undefined;
  }
  return {
    tableId: view.tableId,
    logHash: view.logHash,
    verifyCommand: `tavolo audit verify --receipt ${view.logHash} ${view.tableId}`,
  };
}
