/**
 * Runtime configuration: every setting the server, the admin CLI and the tests read from the
 * environment is declared here once, with its variable, its documentation and its default.
 * The README's configuration table is written from this list.
 */
export interface Setting {
  variable: string;
  doc: string;
  default: string | undefined;
}

export const settings = {
  port: { variable: 'PORT', doc: 'HTTP port', default: '8080' },
  databaseUrl: {
    variable: 'DATABASE_URL',
    doc: '`mysql://user:pass@host:port/db` (MySQL 8 / MariaDB 10.6+) or `sqlite:<path>`',
    default: 'sqlite:./data/research-tools.sqlite',
  },
  publicBaseUrl: {
    variable: 'PUBLIC_BASE_URL',
    doc: 'base used to build file URLs and the OpenAPI `servers` entry',
    default: undefined, // http://localhost:$PORT
  },
  contactEmail: {
    variable: 'CONTACT_EMAIL',
    doc: 'contact address sent to polite-pool sources (OpenAlex, Crossref, NCBI, Unpaywall)',
    default: undefined,
  },
  rateLimitPerMinute: {
    variable: 'RATE_LIMIT_PER_MINUTE',
    doc: 'requests per minute per key',
    default: '60',
  },
  figureSyncWaitMs: {
    variable: 'FIGURE_SYNC_WAIT_MS',
    doc: 'how long create/edit_figure wait for the image before answering pending; 0 always answers pending',
    default: '5000',
  },
  logLevel: { variable: 'LOG_LEVEL', doc: 'pino log level (fatal, error, warn, info, debug, silent)', default: 'info' },
} as const satisfies Record<string, Setting>;

export interface Config {
  port: number;
  databaseUrl: string;
  publicBaseUrl: string;
  contactEmail: string | undefined;
  rateLimitPerMinute: number;
  figureSyncWaitMs: number;
  logLevel: string;
}

export class ConfigError extends Error {}

function read(env: NodeJS.ProcessEnv, setting: Setting): string | undefined {
  const value = env[setting.variable];
  return value === undefined || value === '' ? setting.default : value;
}

function readInteger(env: NodeJS.ProcessEnv, setting: Setting, min: number): number {
  const text = read(env, setting) ?? '';
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${setting.variable} must be an integer >= ${min}, got "${text}"`);
  }
  return value;
}

/** Reads the configuration from an environment (process.env by default); throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readInteger(env, settings.port, 0);
  return {
    port,
    databaseUrl: read(env, settings.databaseUrl) as string,
    publicBaseUrl: (read(env, settings.publicBaseUrl) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    contactEmail: read(env, settings.contactEmail),
    rateLimitPerMinute: readInteger(env, settings.rateLimitPerMinute, 1),
    figureSyncWaitMs: readInteger(env, settings.figureSyncWaitMs, 0),
    logLevel: read(env, settings.logLevel) as string,
  };
}
