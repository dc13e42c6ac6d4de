import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

/** What every tool handler receives besides its arguments. */
export interface ToolContext {
  callId: string;
  accountId: string;
  config: Config;
  db: Knex;
  logger: Logger;
}
