import { pino, type Logger } from 'pino';

/** Structured JSON logs; credentials never reach them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.query.access_token'],
  });
}
