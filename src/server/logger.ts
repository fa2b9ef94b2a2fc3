import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs on stdout. Request lines carry no headers and a redacted URL (request-log.ts); the
 * redaction below is the second wall, should an error object ever carry a request or a token.
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  return pino({
    level,
    redact: ['*.headers.authorization', '*.headers.cookie', '*.access_token', '*.password', '*.client_secret'],
    // A person at a terminal reads lines, a collector parses JSON: pino-pretty formats in pino's transport thread.
    ...(options.pretty
      ? { transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l' } } }
      : {}),
  });
}
