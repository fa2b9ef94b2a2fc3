import type { ErrorCode } from '../../domain/shared/errors.js';

/**
 * The name of each error of the core, as the contract's error format says it (`{"error": "...", "message"}`):
 * the HTTP API answers with these, and forumctl prints them with `--json`.
 */
export const ERROR_NAMES: Record<ErrorCode, string> = {
  Unauthenticated: 'Unauthorized',
  Forbidden: 'AccessDenied',
  NotFound: 'ResourceNotFound',
  InvalidInput: 'ParameterInvalid',
  RuleViolated: 'RecordInvalid',
  TooManyRequests: 'TooManyRequests',
  Unavailable: 'ServiceUnavailable',
};
