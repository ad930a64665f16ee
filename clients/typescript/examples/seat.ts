/**
 * Playing one seat to the end, as any app would: follow the seat's views and, whenever
 * the view offers actions, choose one of them and send it for the version it was offered
 * at. Shared by the example apps.
 */
import { AbortedError, FailedPreconditionError, TableStatus, type Action, type TableView, type TavoloClient } from "../src/index.js";

/** Picks one of the legal actions of a view. */
export type Chooser = (view: TableView) => Action;

/** A uniformly random legal action. */
export const anyLegal: Chooser = (view) => {
  const action = view.legalActions[Math.floor(Math.random() * view.legalActions.length)];
  if (action === undefined) {
    throw new Error("no legal action to choose from");
  }
  return action;
};

/** What a seat saw of its table, from its first view to its last. */
export interface Played {
  /** The last view: FINISHED (with the outcome) or ABORTED. */
  last: TableView;
  /** The versions of every view seen, in order. */
  versions: bigint[];
  /** Actions the engine accepted from this seat. */
  actions: number;
}

/** How {@link playSeat} plays and what it tells. */
export interface SeatOptions {
  /** Picks the action to send (default: a random legal one). */
  choose?: Chooser;
  /** Sees every view first (to print it). */
  onView?: (view: TableView) => void | Promise<void>;
  /** Told when the table's stream is back after the engine was unreachable. */
  onResumed?: () => void;
}

/** Play the caller's seat at `tableId` until the table is over. */
export async function playSeat(client: TavoloClient, tableId: string, options: SeatOptions = {}): Promise<Played> {
  const { choose = anyLegal, onView = () => undefined } = options;
  const versions: bigint[] = [];
  let actions = 0;
  const follow = options.onResumed ? { onResumed: options.onResumed } : {};
  for await (const view of client.tableViews(tableId, 0n, follow)) {
    versions.push(view.version);
    await onView(view);
    if (view.status !== TableStatus.PLAYING) {
      return { last: view, versions, actions };
    }
    if (view.legalActions.length === 0) {
      continue;
    }
    try {
      await client.act(tableId, choose(view), view.version);
      actions += 1;
    } catch (error) {
      // Someone (a bot, a timer) moved first: the next view says what is legal now.
      if (!(error instanceof AbortedError || error instanceof FailedPreconditionError)) {
        throw error;
      }
    }
  }
  throw new Error(`the table ${tableId} stream ended before the table was over`);
}
