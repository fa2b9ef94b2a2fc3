import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { DomainError, type ErrorCode, InvalidInput, Forbidden, TooManyRequests } from '../../domain/shared/errors.js';

interface ErrorResponse {
  status: number;
  body: { error: string; message?: string };
  headers?: Record<string, string>;
}

/** Every code of the core, mapped once: a new code does not compile until it has a row here. */
const RESPONSES: Record<ErrorCode, (error: DomainError) => ErrorResponse> = {
  Unauthenticated: (error) => ({
    status: 401,
    body: { error: 'Unauthorized', message: error.message },
    headers: { 'WWW-Authenticate': 'Bearer realm="forum", error="invalid_token"' },
  }),
  Forbidden: (error) => {
    const message = (error as Forbidden).publicMessage;
    return { status: 403, body: message ? { error: 'AccessDenied', message } : { error: 'AccessDenied' } };
  },
  NotFound: () => ({ status: 404, body: { error: 'ResourceNotFound' } }),
  InvalidInput: (error) => ({ status: 400, body: { error: 'ParameterInvalid', message: (error as InvalidInput).message } }),
  RuleViolated: (error) => ({ status: 400, body: { error: 'RecordInvalid', message: error.message } }),
  TooManyRequests: (error) => ({
    status: 429,
    body: { error: 'TooManyRequests', message: error.message },
    headers: { 'Retry-After': String((error as TooManyRequests).retryAfterSeconds) },
  }),
};

/** Errors raised by Koa's body parser (http-errors), by status. */
function transportError(error: { status?: number }): ErrorResponse | null {
  if (error.status === 413) return { status: 413, body: { error: 'PayloadTooLarge', message: 'The request body exceeds 1 MiB' } };
  if (error.status === 415)
    return { status: 415, body: { error: 'UnsupportedMediaType', message: 'Unsupported request body type' } };
  if (error.status === 400) {
    return { status: 400, body: { error: 'ParameterInvalid', message: 'The request body is not valid JSON or form data' } };
  }
  return null;
}

/** The one place where failures become responses. Unknown errors are logged and answered with a bare 500. */
export function errorMapper(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      const response = error instanceof DomainError ? RESPONSES[error.code](error) : transportError(error as { status?: number });
      if (response) {
        ctx.status = response.status;
        ctx.body = response.body;
        if (response.headers) ctx.set(response.headers);
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'InternalError' };
    }
  };
}
