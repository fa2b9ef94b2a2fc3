/**
 * Errors of the core, typed by meaning. They carry no transport detail: the HTTP adapter maps each code
 * to a status and body, forumctl maps it to an exit code, both through one exhaustive table.
 */
export type ErrorCode =
  'Unauthenticated' | 'Forbidden' | 'NotFound' | 'InvalidInput' | 'RuleViolated' | 'TooManyRequests' | 'Unavailable';

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/** No (valid) user behind a request that needs one. */
export class Unauthenticated extends DomainError {
  readonly code = 'Unauthenticated';
  constructor(message = 'A valid access token is required') {
    super(message);
  }
}

/** The actor may not do this. `message` is set only where the contract wants one shown. */
export class Forbidden extends DomainError {
  readonly code = 'Forbidden';
  constructor(readonly publicMessage?: string) {
    super(publicMessage ?? 'Access denied');
  }
}

/** The record does not exist, is soft-deleted, or is not the actor's to see. */
export class NotFound extends DomainError {
  readonly code = 'NotFound';
  /** `what` names it (`node 999`); `message`, when given, is the whole sentence said instead of "… not found". */
  constructor(
    readonly what = 'record',
    message?: string,
  ) {
    super(message ?? `${what} not found`);
  }
}

/** A request parameter is absent, of the wrong kind, or outside its range. */
export class InvalidInput extends DomainError {
  readonly code = 'InvalidInput';
  constructor(
    readonly parameter: string,
    message?: string,
  ) {
    super(message ?? `${parameter} is invalid`);
  }
}

/** A record would break a rule of the domain if saved (blank title, unknown node, closed topic). */
export class RuleViolated extends DomainError {
  readonly code = 'RuleViolated';
}

/** Throttled; `retryAfterSeconds` says when to come back. */
export class TooManyRequests extends DomainError {
  readonly code = 'TooManyRequests';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests, try again later',
  ) {
    super(message);
  }
}

/** Something the work needs besides the database (the upload store) cannot be reached now; nothing was done. */
export class Unavailable extends DomainError {
  readonly code = 'Unavailable';
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
