import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ERROR_NAMES } from '../presentation/errors.js';
import { requestIdOf } from './request-log.js';
import { BodyRejected } from '../presentation/request-body.js';
import {
  DomainError,
  type ErrorCode,
  InvalidInput,
  Forbidden,
  TooManyRequests,
  type Unavailable,
} from '../../domain/shared/errors.js';

interface ErrorResponse {
  status: number;
  body: { error: string; message?: string };
  headers?: Record<string, string>;
}

/** Every code of the core, mapped once: a new code does not compile until it has a row here. */
const RESPONSES: Record<ErrorCode, (error: DomainError) => ErrorResponse> = {
  Unauthenticated: (error) => ({
    status: 401,
    body: { error: ERROR_NAMES.Unauthenticated, message: error.message },
    headers: { 'WWW-Authenticate': 'Bearer realm="forum", error="invalid_token"' },
  }),
  Forbidden: (error) => {
    const message = (error as Forbidden).publicMessage;
    return { status: 403, body: message ? { error: ERROR_NAMES.Forbidden, message } : { error: ERROR_NAMES.Forbidden } };
  },
  NotFound: () => ({ status: 404, body: { error: ERROR_NAMES.NotFound } }),
  InvalidInput: (error) => ({
    status: 400,
    body: { error: ERROR_NAMES.InvalidInput, message: (error as InvalidInput).message },
  }),
  RuleViolated: (error) => ({ status: 400, body: { error: ERROR_NAMES.RuleViolated, message: error.message } }),
  TooManyRequests: (error) => ({
    status: 429,
    body: { error: ERROR_NAMES.TooManyRequests, message: error.message },
    headers: { 'Retry-After': String((error as TooManyRequests).retryAfterSeconds) },
  }),
  Unavailable: (error) => ({
    status: 503,
    body: { error: ERROR_NAMES.Unavailable, message: error.message },
    headers: { 'Retry-After': String((error as Unavailable).retryAfterSeconds) },
  }),
};

function bodyError(error: BodyRejected): ErrorResponse {
  if (error.status === 413) {
    return { status: 413, body: { error: 'PayloadTooLarge', message: error.publicMessage ?? 'The request body exceeds 1 MiB' } };
  }
  if (error.status === 415) {
    const message = error.publicMessage ?? 'Unsupported request body type or encoding';
    return { status: 415, body: { error: 'UnsupportedMediaType', message } };
  }
  const message = error.publicMessage ?? 'The request body could not be read as JSON or form data in its encoding';
  return { status: 400, body: { error: 'ParameterInvalid', message } };
}

/** Seconds a client is asked to wait when the database cannot be reached. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE: ErrorResponse = {
  status: 503,
  body: { error: 'ServiceUnavailable', message: 'The database cannot be reached right now; try again shortly' },
  headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
};

/**
 * The one place where failures become responses. `isUnavailable` recognises the database's "cannot be reached"
 * errors (the persistence adapter knows them): those are 503. Unknown errors are logged and answered with a
 * bare 500.
 */
export function errorMapper(logger: Logger, isUnavailable: (error: unknown) => boolean) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      let response: ErrorResponse | null = null;
      if (error instanceof DomainError) response = RESPONSES[error.code](error);
      else if (error instanceof BodyRejected) response = bodyError(error);
      else if (isUnavailable(error)) {
        logger.warn({ reqId: requestIdOf(ctx), err: error, method: ctx.method, path: ctx.path }, 'database unavailable');
        response = UNAVAILABLE;
      }
      if (response) {
        ctx.status = response.status;
        ctx.body = response.body;
        if (response.headers) ctx.set(response.headers);
        return;
      }
      logger.error({ reqId: requestIdOf(ctx), err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'InternalError' };
    }
  };
}
