/**
 * Retries of calls the service could not be reached for (UNAVAILABLE) or that a service
 * shutting down cancelled (CANCELLED): a restarting service comes back within seconds, so the SDK waits (doubling delays up to a cap) and
 * tries again until an outage has lasted longer than the policy allows.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Code } from "@connectrpc/connect";
import { toTavoloError, type TavoloError } from "./errors.js";

/** How long and how often to retry a call that got UNAVAILABLE. */
export interface RetryPolicy {
  /** The first wait after a failure, in milliseconds. */
  firstDelayMs: number;
  /** The longest wait between two tries, in milliseconds. */
  maxDelayMs: number;
  /** Stop retrying once an outage has lasted this long, in milliseconds. */
  giveUpAfterMs: number;
}

/** A quarter second, doubling up to eight, for up to two minutes of outage. */
export const DEFAULT_RETRY: RetryPolicy = { firstDelayMs: 250, maxDelayMs: 8_000, giveUpAfterMs: 120_000 };

/**
 * Whether `error` is worth another try: the service was not reachable (UNAVAILABLE), or
 * cancelled the call itself as it shut down (CANCELLED while the caller did not cancel).
 */
export function isRetryable(error: TavoloError, signal?: AbortSignal): boolean {
  return error.code === Code.Unavailable || (error.code === Code.Canceled && !signal?.aborted);
}

/**
 * Tracks one outage: {@link Outage.wait} sleeps the next delay, or returns false once the
 * outage has lasted longer than the policy allows.
 */
export class Outage {
  private started: number | undefined;
  private delay: number;

  constructor(private readonly policy: RetryPolicy) {
    this.delay = policy.firstDelayMs;
  }

  /** The service answered: the next failure starts a new outage. */
  over(): void {
    this.started = undefined;
    this.delay = this.policy.firstDelayMs;
  }

  /** Sleep before the next try; false when it is time to give up. */
  async wait(signal?: AbortSignal): Promise<boolean> {
    const now = Date.now();
    this.started ??= now;
    if (now - this.started > this.policy.giveUpAfterMs) {
      return false;
    }
    await sleep(this.delay, undefined, signal ? { signal } : undefined);
    this.delay = Math.min(this.delay * 2, this.policy.maxDelayMs);
    return true;
  }
}

/**
 * `call` until it succeeds, retrying as {@link isRetryable} and `policy` say; any other
 * failure (or the last retryable one) is thrown as a typed {@link TavoloError}. The caller makes the call
 * safe to repeat (a read, or a command carrying the same request id every time).
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  const outage = new Outage(policy);
  for (;;) {
    try {
      return await call();
    } catch (thrown) {
      const error = toTavoloError(thrown);
      if (!isRetryable(error, signal) || !(await outage.wait(signal))) {
        throw error;
      }
    }
  }
}
