import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs on stdout. Request lines carry no headers and a redacted URL (request-log.ts); the
 * redaction below is the second wall, should an error object ever carry a request or a token.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: ['*.headers.authorization', '*.headers.cookie', '*.access_token', '*.password', '*.client_secret'],
  });
}
