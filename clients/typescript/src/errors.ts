/**
 * Errors of the Tavolo services as typed exceptions: every failed call becomes a
 * {@link TavoloError} subclass named after its gRPC status, carrying the status code and
 * the service's own message (what the service says is wrong, meant for the person).
 */
import { Code, ConnectError } from "@connectrpc/connect";

/** A call the service refused or could not serve: its gRPC status and message. */
export class TavoloError extends Error {
  /** The gRPC status code (numbered as gRPC numbers them). */
  readonly code: Code;
  /** The status name as gRPC spells it, e.g. "INVALID_ARGUMENT". */
  readonly status: string;
  /** The service's message, unchanged. */
  readonly serviceMessage: string;

  constructor(code: Code, serviceMessage: string, options?: { cause?: unknown }) {
    const status = statusName(code);
    super(`${serviceMessage} (${status})`, options);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.serviceMessage = serviceMessage;
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

const CLASSES: ReadonlyMap<Code, new (code: Code, message: string, options?: { cause?: unknown }) => TavoloError> =
  new Map<Code, new (code: Code, message: string, options?: { cause?: unknown }) => TavoloError>([
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
  return new Class(connect.code, connect.rawMessage, { cause: error });
}
