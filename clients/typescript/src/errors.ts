/**
 * Errors of the Tavolo services as typed exceptions: every failed call becomes a
 * {@link TavoloError} subclass named after its gRPC status, carrying the status code, the
 * service's own message (what the service says is wrong, meant for the person) and the
 * refusal's machine-readable details (API-1): the `google.rpc.ErrorInfo` every refusal
 * carries in its `grpc-status-details-bin` trailer (a stable `reason` such as
 * "NOT_YOUR_TURN", the domain "tavolo.v1", and `metadata` such as the table and its
 * version), the fields a `BadRequest` names, and a `RetryInfo`'s delay. The reasons are
 * listed in docs/errors.md.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "./gen-rpc/google/rpc/error_details_pb.js";

/** What a refusal says for a program: its reason, domain, metadata and more. */
export interface RefusalDetails {
  /** The stable UPPER_SNAKE_CASE reason, e.g. "NOT_YOUR_TURN"; "" when none was sent. */
  readonly reason: string;
  /** "tavolo.v1" for the services' refusals; "" when none was sent. */
  readonly domain: string;
  /** The values that explain it (table_id, version, allowed ...), all strings. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The request fields found invalid, each with the service's description. */
  readonly fieldViolations: ReadonlyArray<{ readonly field: string; readonly description: string }>;
  /** How long to wait before retrying, when the service says a retry may work. */
  readonly retryDelayMs?: number | undefined;
}

const NO_DETAILS: RefusalDetails = { reason: "", domain: "", metadata: {}, fieldViolations: [] };

/** A call the service refused or could not serve: its gRPC status and message. */
export class TavoloError extends Error {
  /** The gRPC status code (numbered as gRPC numbers them). */
  readonly code: Code;
  /** The status name as gRPC spells it, e.g. "INVALID_ARGUMENT". */
  readonly status: string;
  /** The service's message, unchanged. */
  readonly serviceMessage: string;
  /** The refusal's stable reason, e.g. "CARD_NOT_HELD" (see docs/errors.md); "" if none. */
  readonly reason: string;
  /** The reason's domain: "tavolo.v1". */
  readonly domain: string;
  /** The values a client needs to explain the refusal in its own words. */
  readonly metadata: Readonly<Record<string, string>>;
  /** The invalid fields a BadRequest names. */
  readonly fieldViolations: RefusalDetails["fieldViolations"];
  /** The delay a RetryInfo asks for before trying again, if any. */
  readonly retryDelayMs: number | undefined;

  constructor(
    code: Code,
    serviceMessage: string,
    options?: { cause?: unknown; details?: RefusalDetails },
  ) {
    const status = statusName(code);
    const details = options?.details ?? NO_DETAILS;
    super(`${serviceMessage} (${details.reason ? `${status} ${details.reason}` : status})`, options);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.serviceMessage = serviceMessage;
    this.reason = details.reason;
    this.domain = details.domain;
    this.metadata = details.metadata;
    this.fieldViolations = details.fieldViolations;
    this.retryDelayMs = details.retryDelayMs;
  }
}

/** The request is malformed or names something impossible (INVALID_ARGUMENT). */
export class InvalidArgumentError extends TavoloError {}
/** What the request names does not exist, or not for the caller (NOT_FOUND). */
export class NotFoundError extends TavoloError {}
/** It exists already, e.g. a nickname is taken (ALREADY_EXISTS). */
export class AlreadyExistsError extends TavoloError {}
/** The caller may not do this, e.g. act for another seat (PERMISSION_DENIED). */
export class PermissionDeniedError extends TavoloError {}
/** No valid session: log in again (UNAUTHENTICATED). */
export class UnauthenticatedError extends TavoloError {}
/** Not now: the state does not allow it, e.g. not the caller's turn (FAILED_PRECONDITION). */
export class FailedPreconditionError extends TavoloError {}
/** Someone moved first: the version the caller saw is stale (ABORTED). */
export class AbortedError extends TavoloError {}
/** Too many requests or too much of something (RESOURCE_EXHAUSTED). */
export class ResourceExhaustedError extends TavoloError {}
/** The service could not be reached, retries included (UNAVAILABLE). */
export class UnavailableError extends TavoloError {}
/** The call was cancelled: by the caller, or by a service shutting down (CANCELLED). */
export class CancelledError extends TavoloError {}
/** The call's deadline passed before an answer came (DEADLINE_EXCEEDED). */
export class DeadlineExceededError extends TavoloError {}

type ErrorClass = new (
  code: Code,
  message: string,
  options?: { cause?: unknown; details?: RefusalDetails },
) => TavoloError;

const CLASSES: ReadonlyMap<Code, ErrorClass> =
  new Map<Code, ErrorClass>([
    [Code.InvalidArgument, InvalidArgumentError],
    [Code.NotFound, NotFoundError],
    [Code.AlreadyExists, AlreadyExistsError],
    [Code.PermissionDenied, PermissionDeniedError],
    [Code.Unauthenticated, UnauthenticatedError],
    [Code.FailedPrecondition, FailedPreconditionError],
    [Code.Aborted, AbortedError],
    [Code.ResourceExhausted, ResourceExhaustedError],
    [Code.Unavailable, UnavailableError],
    [Code.DeadlineExceeded, DeadlineExceededError],
    [Code.Canceled, CancelledError],
  ]);

/** "INVALID_ARGUMENT" for Code.InvalidArgument, as gRPC names statuses. */
export function statusName(code: Code): string {
  if (code === Code.Canceled) {
    return "CANCELLED"; // connect spells the enum member the American way
  }
  const name = Code[code] ?? "UNKNOWN";
  return name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/** The typed error for anything a call threw; a TavoloError passes through unchanged. */
export function toTavoloError(error: unknown): TavoloError {
  if (error instanceof TavoloError) {
    return error;
  }
  const connect = ConnectError.from(error);
  const Class = CLASSES.get(connect.code) ?? TavoloError;
  return new Class(connect.code, connect.rawMessage, { cause: error, details: refusalDetails(connect) });
}

/** The machine-readable details of a refusal, decoded from its status details. */
export function refusalDetails(error: ConnectError): RefusalDetails {
  const info = error.findDetails(ErrorInfoSchema)[0];
  const violations = error.findDetails(BadRequestSchema).flatMap((bad) => bad.fieldViolations);
  const retry = error.findDetails(RetryInfoSchema)[0]?.retryDelay;
  return {
    reason: info?.reason ?? "",
    domain: info?.domain ?? "",
    metadata: { ...(info?.metadata ?? {}) },
    fieldViolations: violations.map((v) => ({ field: v.field, description: v.description })),
    retryDelayMs:
      retry === undefined ? undefined : Number(retry.seconds) * 1000 + retry.nanos / 1_000_000,
  };
}
