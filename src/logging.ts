import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Request headers are never logged, so an API key cannot reach the log;
 * `redact` is a second guard for any object that carries one by mistake.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'research-tools-api' },
      redact: { paths: ['key', 'apiKey', 'authorization', '*.authorization', '*["x-api-key"]', 'headers'], censor: '[redacted]' },
    },
    destination,
  );
}
