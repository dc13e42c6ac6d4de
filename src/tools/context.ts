import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import type { UpstreamClient } from '../upstream/client.ts';

/** What every tool handler receives besides its arguments. */
export interface ToolContext {
  callId: string;
  accountId: string;
  config: Config;
  db: Knex;
  logger: Logger;
  /** The app's one upstream HTTP layer (cache, limits and retries shared by all calls). */
  upstream: UpstreamClient;
  /** This process's figure job runner (figure handlers wake it and wait on it). */
  figures: FigureJobRunner;
}
