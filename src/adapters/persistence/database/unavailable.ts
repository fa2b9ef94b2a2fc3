/**
 * Whether an error means "the database cannot be reached right now" (down, restarting, shutting down, out of
 * connections, the pool waited too long, a statement ran past the statement timeout, or the connection broke
 * under a statement) rather than a fault of the
 * request or of the code. Those become 503 with Retry-After: the client may try again. (A connection that breaks
 * during COMMIT leaves the outcome unknown, as with any database client: the write may have landed.)
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error.name === 'KnexTimeoutError') return true;
  if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message))) return true;
  // Node reports a refused connection to a host with several addresses as an AggregateError of them.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

const UNAVAILABLE_CODES = new Set([
  // the network
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // PostgreSQL: query_canceled (the statement timeout), admin_shutdown, crash_shutdown, cannot_connect_now
  // (starting up), too_many_connections
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // a unit of work aborted by others (deadlock_detected, serialization_failure) after its last try
  '40P01',
  '40001',
  // (class 08, connection exceptions, is matched by prefix)
]);

/**
 * What pg, its pool and knex say when a connection breaks or cannot be had in time (they set no code).
 * MikroORM puts the statement in front of the driver's message, so these are found anywhere in it.
 */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Knex: Timeout acquiring a connection/,
];
