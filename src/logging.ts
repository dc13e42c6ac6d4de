import { pino, type DestinationStream, type Logger } from 'pino';

const CENSOR = '[redacted]';
/** Fields never written as they are, at the top of a line (or of a child logger's bindings). */
const SECRET_FIELDS = new Set(['key', 'apiKey', 'authorization', 'headers']);
/** Fields never written as they are, one level down (`{ request: { authorization } }`). */
const NESTED_SECRET_FIELDS = ['authorization', 'x-api-key'];

/**
 * The fields of a log line with any secret-looking field censored. It only reads the fields, and
 * copies the line only when one needs censoring (no line the server writes should): pino's own
 * `redact` option parses its paths again and copies the object for every line, about 14 KB of
 * garbage per line, an eighth of all a charged call allocates.
 */
function withoutSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  let censored: Record<string, unknown> | undefined;
  for (const name in fields) {
    const value = fields[name];
    if (SECRET_FIELDS.has(name)) {
      (censored ??= { ...fields })[name] = CENSOR;
    } else if (typeof value === 'object' && value !== null && NESTED_SECRET_FIELDS.some((nested) => Object.hasOwn(value, nested))) {
      const inner: Record<string, unknown> = { ...value };
      for (const nested of NESTED_SECRET_FIELDS) if (Object.hasOwn(inner, nested)) inner[nested] = CENSOR;
      (censored ??= { ...fields })[name] = inner;
    }
  }
  return censored ?? fields;
}

/**
 * Structured JSON logs. Request headers are never logged, so an API key cannot reach the log;
 * withoutSecrets is a second guard for any object that carries one by mistake, in a line's fields
 * and in a child logger's bindings (pino applies its `bindings` formatter to the root logger only,
 * so `child` is wrapped; children inherit the wrapper from the root).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const logger = pino({ level, base: { service: 'research-tools-api' }, formatters: { log: withoutSecrets } }, destination);
  const child = logger.child;
  logger.child = function (this: Logger, bindings, options) {
    return child.call(this, withoutSecrets(bindings), options);
  } as Logger['child'];
  return logger;
}
