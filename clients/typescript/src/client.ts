/**
 * The SDK's client: one object per logged-in player over the four services, speaking
 * gRPC (HTTP/2) through connect-node's gRPC transport. It does what every app would
 * otherwise write: keeps the session fresh (refresh-token rotation), sends the
 * installation id, gives every call a deadline, retries UNAVAILABLE (commands with the
 * same request id, so the engine applies them once), follows a table's views and the
 * lobby's updates across service restarts, and turns failures into typed errors.
 */
import { randomUUID } from "node:crypto";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, createClient, type CallOptions, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { NotFoundError, TavoloError, UnauthenticatedError, toTavoloError } from "./errors.js";
import { INSTALLATION_HEADER, isInstallationId, newInstallationId } from "./installation.js";
import { DEFAULT_RETRY, Outage, isRetryable, withRetries, type RetryPolicy } from "./retry.js";
import { type Action, ActionSchema } from "./gen/tavolo/v1/common_pb.js";
import {
  Engine,
  TableStatus,
  type ActResponse,
  type TableView,
} from "./gen/tavolo/v1/engine_pb.js";
import { Leaderboard, type PlayerStats } from "./gen/tavolo/v1/leaderboard_pb.js";
import {
  Lobby,
  type Invitation,
  InvitationState,
  type LobbyUpdate,
  type Room,
  type Session,
  type TableAssignment,
  type Ticket,
  JoinQueueRequestSchema,
  CreateRoomRequestSchema,
  StartRoomRequestSchema,
  PlayVersusComputerRequestSchema,
} from "./gen/tavolo/v1/lobby_pb.js";
import { Wallet, type Balance, type Transfer } from "./gen/tavolo/v1/wallet_pb.js";

/** Where each service answers: "host:port" (plain HTTP/2) or a full http(s) URL. */
export interface Addresses {
  lobby: string;
  engine: string;
  wallet: string;
  leaderboard: string;
}

/** How a {@link TavoloClient} behaves; only `addresses` is required. */
export interface ClientOptions {
  /** Where the services answer. */
  addresses: Addresses;
  /** The app's installation id (see loadInstallationId); a fresh random one if omitted. */
  installationId?: string;
  /** Deadline of every unary call, in milliseconds (default 10 s). */
  deadlineMs?: number;
  /** Retries of UNAVAILABLE (default {@link DEFAULT_RETRY}). */
  retry?: Partial<RetryPolicy>;
  /** Refresh the access token when it expires within this many milliseconds (default 60 s). */
  refreshBeforeMs?: number;
  /** Called with every new session (login, register, each refresh) so the app can keep it. */
  onSession?: (session: Session) => void | Promise<void>;
}

/** Options of one call. */
export interface CallSettings {
  /** This call's deadline in milliseconds, instead of the client's. */
  deadlineMs?: number;
  /** Cancels the call (and its retries). */
  signal?: AbortSignal;
}

/** Options of a stream the SDK follows across restarts. */
export interface FollowSettings {
  /** Stops following: the iterator ends. */
  signal?: AbortSignal;
  /** Called when a lost stream is opened again after an outage. */
  onResumed?: () => void;
}

type Services = {
  lobby: Client<typeof Lobby>;
  engine: Client<typeof Engine>;
  wallet: Client<typeof Wallet>;
  leaderboard: Client<typeof Leaderboard>;
};

function baseUrl(address: string): string {
  return /^https?:\/\//.test(address) ? address : `http://${address}`;
}

/** A table's status is final: the table will not change again. */
export function isOver(view: TableView): boolean {
  return view.status !== TableStatus.PLAYING;
}

/**
 * One player's connection to the platform. Create it, then {@link TavoloClient.register},
 * {@link TavoloClient.login} or {@link TavoloClient.resume} a kept session; call
 * {@link TavoloClient.close} when done.
 */
export class TavoloClient {
  /** The generated clients, for calls the SDK has no helper for (pass {@link TavoloClient.callOptions}). */
  readonly services: Services;
  /** The installation id this client sends. */
  readonly installationId: string;
  private current: Session | undefined;
  private refreshing: Promise<Session> | undefined;
  private readonly deadlineMs: number;
  private readonly retry: RetryPolicy;
  private readonly refreshBeforeMs: number;
  private readonly onSession: ClientOptions["onSession"];

  constructor(options: ClientOptions) {
    this.installationId = options.installationId ?? newInstallationId();
    if (!isInstallationId(this.installationId)) {
      throw new RangeError("an installation id is 1-100 letters, digits and . _ : - characters");
    }
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.refreshBeforeMs = options.refreshBeforeMs ?? 60_000;
    this.onSession = options.onSession;
    const installation: Interceptor = (next) => (request) => {
      request.header.set(INSTALLATION_HEADER, this.installationId);
      return next(request);
    };
    const transport = (address: string): Transport =>
      createGrpcTransport({ baseUrl: baseUrl(address), interceptors: [installation] });
    const { addresses } = options;
    this.services = {
      lobby: createClient(Lobby, transport(addresses.lobby)),
      engine: createClient(Engine, transport(addresses.engine)),
      wallet: createClient(Wallet, transport(addresses.wallet)),
      leaderboard: createClient(Leaderboard, transport(addresses.leaderboard)),
    };
  }

  // -- the session ---------------------------------------------------------------------

  /** The session in use, if logged in (its refresh token changes at every refresh). */
  get session(): Session | undefined {
    return this.current;
  }

  /** Open an account and log in with it; a taken nickname is an AlreadyExistsError. */
  async register(nickname: string, password: string, settings: CallSettings = {}): Promise<Session> {
    // Not retried: a lost answer to a Register that was applied would make a retry fail.
    return this.adopt(await this.once(() => this.services.lobby.register({ nickname, password }, this.plain(settings))));
  }

  /** Log in; a wrong nickname or password is an UnauthenticatedError. */
  async login(nickname: string, password: string, settings: CallSettings = {}): Promise<Session> {
    const session = await withRetries(
      () => this.services.lobby.login({ nickname, password }, this.plain(settings)),
      this.retry,
      settings.signal,
    );
    return this.adopt(session);
  }

  /** Use a session kept from an earlier run (it is refreshed when its access token is old). */
  resume(session: Session): void {
    this.current = session;
  }

  /**
   * A new session from the refresh token, which the lobby then considers used: the next
   * refresh must present the new one (rotation). Concurrent callers share one refresh, so
   * a token is never presented twice, which would make the lobby revoke the whole login.
   * Not retried on UNAVAILABLE for the same reason.
   */
  async refresh(settings: CallSettings = {}): Promise<Session> {
    const session = this.current;
    if (session === undefined) {
      throw new UnauthenticatedError(Code.Unauthenticated, "not logged in: register or log in first");
    }
    this.refreshing ??= this.once(() =>
      this.services.lobby.refresh({ refreshToken: session.refreshToken }, this.plain(settings)),
    )
      .then((fresh) => this.adopt(fresh))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** End this login on the lobby (every token of it stops working) and forget it. */
  async logout(settings: CallSettings = {}): Promise<void> {
    const session = this.current;
    if (session === undefined) {
      return;
    }
    await this.once(() => this.services.lobby.logout({ refreshToken: session.refreshToken }, this.plain(settings)));
    this.current = undefined;
  }

  /**
   * Options for a call of the generated clients as the logged-in player: the
   * authorization header with a fresh access token, and the deadline.
   */
  async callOptions(settings: CallSettings = {}): Promise<CallOptions> {
    const session = await this.fresh(settings);
    return { ...this.plain(settings), headers: { authorization: `Bearer ${session.accessToken}` } };
  }

  // -- the lobby -----------------------------------------------------------------------

  /** Wait in the online queue for `game` at a table of `players` seats (stake 0 = online). */
  async joinQueue(
    request: MessageInitShape<typeof JoinQueueRequestSchema>,
    settings: CallSettings = {},
  ): Promise<Ticket> {
    // Not retried: a join applied with its answer lost would make the retry fail (one
    // ticket per player); the lobby's updates say whether the ticket exists.
    return this.authed((options) => this.services.lobby.joinQueue(request, options), settings, false);
  }

  /** Open a friends room the caller hosts. */
  async createRoom(request: MessageInitShape<typeof CreateRoomRequestSchema>, settings: CallSettings = {}): Promise<Room> {
    return this.authed((options) => this.services.lobby.createRoom(request, options), settings, false);
  }

  /** Invite a player by nickname to a room the caller hosts. */
  async invite(roomId: string, nickname: string, settings: CallSettings = {}): Promise<Room> {
    return this.authed((options) => this.services.lobby.invite({ roomId, nickname }, options), settings, false);
  }

  /** Accept (or decline) an invitation to a room. */
  async respondToInvitation(invitation: Pick<Invitation, "roomId">, accept: boolean, settings: CallSettings = {}): Promise<Room> {
    return this.authed(
      (options) => this.services.lobby.respondToInvitation({ roomId: invitation.roomId, accept }, options),
      settings,
      false,
    );
  }

  /** Start a room the caller hosts: its table opens. */
  async startRoom(request: MessageInitShape<typeof StartRoomRequestSchema>, settings: CallSettings = {}): Promise<TableAssignment> {
    return this.authed((options) => this.services.lobby.startRoom(request, options), settings, false);
  }

  /** A table against bots at once; the caller has seat 0. */
  async playVersusComputer(
    request: MessageInitShape<typeof PlayVersusComputerRequestSchema>,
    settings: CallSettings = {},
  ): Promise<TableAssignment> {
    return this.authed((options) => this.services.lobby.playVersusComputer(request, options), settings, false);
  }

  /**
   * The lobby's updates for the caller (invitations, tickets, tables the caller is seated
   * at), followed across lobby restarts: the lobby sends its current state first on every
   * (re)connection, and an update already yielded is not yielded again.
   */
  async *lobbyUpdates(settings: FollowSettings = {}): AsyncGenerator<LobbyUpdate> {
    const seen = new Set<string>();
    yield* this.follow(
      async (signal) => this.services.lobby.watchLobby({}, { ...(await this.streamOptions(signal)) }),
      (update) => {
        const key = JSON.stringify(update, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
        if (seen.has(key)) {
          return false;
        }
        seen.add(key);
        return true;
      },
      () => false,
      settings,
    );
  }

  /**
   * The table the caller is seated at, from the lobby's updates: the one the caller is
   * at now if any (the lobby sends its current state first), else the next one.
   */
  async seated(settings: FollowSettings = {}): Promise<TableAssignment> {
    for await (const update of this.lobbyUpdates(settings)) {
      if (update.update.case === "seated") {
        return update.update.value;
      }
    }
    throw new TavoloError(Code.Canceled, "stopped before being seated");
  }

  /** The next invitation waiting for the caller's answer, from the lobby's updates. */
  async invited(settings: FollowSettings = {}): Promise<Invitation> {
    for await (const update of this.lobbyUpdates(settings)) {
      if (update.update.case === "invitation" && update.update.value.state === InvitationState.PENDING) {
        return update.update.value;
      }
    }
    throw new TavoloError(Code.Canceled, "stopped before an invitation came");
  }

  // -- the engine ----------------------------------------------------------------------

  /** The caller's current view of a table. */
  async getTable(tableId: string, settings: CallSettings = {}): Promise<TableView> {
    return this.authed((options) => this.services.engine.getTable({ tableId }, options), settings);
  }

  /**
   * Play `action` for the caller's seat at the version the caller saw. A stale version is
   * an AbortedError (someone moved first: look again). The request id is drawn once, so
   * a retry after UNAVAILABLE is applied once however many times it reaches the engine.
   */
  async act(
    tableId: string,
    action: Action | MessageInitShape<typeof ActionSchema>,
    expectedVersion: bigint,
    settings: CallSettings & { requestId?: string } = {},
  ): Promise<ActResponse> {
    const requestId = settings.requestId ?? randomUUID();
    const request = { tableId, action: create(ActionSchema, action), expectedVersion, requestId };
    return this.authed((options) => this.services.engine.act(request, options), settings);
  }

  /**
   * Every view of the caller's seat, from `afterVersion` on (0: the current view first),
   * until the table is over. A stream lost to a restarting engine is opened again from the
   * last version yielded, so no view is skipped or yielded twice. A table the lobby has
   * seated the caller at may not be open at the engine yet: NOT_FOUND before the first
   * view is waited out like an outage.
   */
  async *tableViews(tableId: string, afterVersion = 0n, settings: FollowSettings = {}): AsyncGenerator<TableView> {
    let last = afterVersion;
    yield* this.follow(
      async (signal) =>
        this.services.engine.watchTable({ tableId, afterVersion: last }, await this.streamOptions(signal)),
      (view) => {
        if (view.version <= last && last !== 0n) {
          return false;
        }
        last = view.version;
        return true;
      },
      isOver,
      settings,
      (error) => error instanceof NotFoundError,
    );
  }

  // -- wallet and leaderboard ----------------------------------------------------------

  /** The caller's coins. */
  async balance(settings: CallSettings = {}): Promise<Balance> {
    return this.authed((options) => this.services.wallet.getBalance({}, options), settings);
  }

  /** The caller's latest transfers (one page). */
  async transfers(settings: CallSettings = {}): Promise<Transfer[]> {
    const page = await this.authed((options) => this.services.wallet.listTransfers({}, options), settings);
    return page.transfers;
  }

  /** A player's XP, level and per-game results (the caller's when `playerId` is empty). */
  async playerStats(playerId = "", settings: CallSettings = {}): Promise<PlayerStats> {
    return this.authed((options) => this.services.leaderboard.getPlayerStats({ playerId }, options), settings);
  }

  // -- plumbing ------------------------------------------------------------------------

  private plain(settings: CallSettings): CallOptions {
    const options: CallOptions = { timeoutMs: settings.deadlineMs ?? this.deadlineMs };
    if (settings.signal) {
      options.signal = settings.signal;
    }
    return options;
  }

  private async streamOptions(signal: AbortSignal): Promise<CallOptions> {
    const session = await this.fresh({});
    return { signal, headers: { authorization: `Bearer ${session.accessToken}` } };
  }

  private async adopt(session: Session): Promise<Session> {
    this.current = session;
    await this.onSession?.(session);
    return session;
  }

  /** The session, refreshed first when its access token is about to expire. */
  private async fresh(settings: CallSettings): Promise<Session> {
    const session = this.current;
    if (session === undefined) {
      throw new UnauthenticatedError(Code.Unauthenticated, "not logged in: register or log in first");
    }
    const expires = session.accessExpiresAt ? timestampMs(session.accessExpiresAt) : Infinity;
    if (expires - Date.now() > this.refreshBeforeMs) {
      return session;
    }
    return this.refreshing ?? this.refresh(settings);
  }

  private async once<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (thrown) {
      throw toTavoloError(thrown);
    }
  }

  /**
   * A call as the logged-in player: retried on UNAVAILABLE when `retried` (reads, and
   * actions, which the engine applies once per request id; the lobby's commands have no
   * request id, so they are not), and tried once more with a refreshed session if the
   * access token was refused.
   */
  private async authed<T>(call: (options: CallOptions) => Promise<T>, settings: CallSettings, retried = true): Promise<T> {
    const attempt = async (): Promise<T> => call(await this.callOptions(settings));
    const run = () => (retried ? withRetries(attempt, this.retry, settings.signal) : this.once(attempt));
    try {
      return await run();
    } catch (thrown) {
      const error = toTavoloError(thrown);
      if (!(error instanceof UnauthenticatedError) || this.current === undefined) {
        throw error;
      }
      await this.refresh(settings);
      return run();
    }
  }

  /**
   * Follow a server stream across outages: on UNAVAILABLE (or the stream ending early) it
   * is opened again, after a wait, by `open`, which resumes where `keep` left off. Before
   * the first item, errors `notYet` accepts are waited out the same way.
   */
  private async *follow<T>(
    open: (signal: AbortSignal) => Promise<AsyncIterable<T>>,
    keep: (item: T) => boolean,
    last: (item: T) => boolean,
    settings: FollowSettings,
    notYet: (error: TavoloError) => boolean = () => false,
  ): AsyncGenerator<T> {
    const outage = new Outage(this.retry);
    const stop = new AbortController();
    const abort = () => stop.abort();
    settings.signal?.addEventListener("abort", abort, { once: true });
    let lost = false;
    let started = false;
    try {
      for (;;) {
        try {
          for await (const item of await open(stop.signal)) {
            if (lost) {
              lost = false;
              settings.onResumed?.();
            }
            outage.over();
            started = true;
            if (!keep(item)) {
              continue;
            }
            yield item;
            if (last(item)) {
              return;
            }
          }
        } catch (thrown) {
          if (stop.signal.aborted) {
            return;
          }
          const error = toTavoloError(thrown);
          if (!isRetryable(error, stop.signal) && (started || !notYet(error))) {
            throw error;
          }
        }
        if (stop.signal.aborted) {
          return;
        }
        lost = true;
        if (!(await outage.wait(stop.signal).catch(() => false))) {
          if (stop.signal.aborted) {
            return;
          }
          throw new TavoloError(Code.Unavailable, "the service stayed unreachable; try again later");
        }
      }
    } finally {
      settings.signal?.removeEventListener("abort", abort);
      stop.abort();
    }
  }
}
