import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import type { UpstreamClient } from '../upstream/client.ts';

/** How far a long call has come: `done` of `total` steps (references checked, sources answered, render states), with a short line saying what happened last. */
export type ProgressReporter = (done: number, total: number, message: string) => void;

/** What every tool handler receives besides its arguments. */
export interface ToolContext {
  callId: string;
  accountId: string;
  config: Config;
  db: Knex;
  logger: Logger;
  /** The app's one upstream HTTP layer (cache, limits and retries shared by all calls); it sends nothing more for a call once `signal` is aborted. */
  upstream: UpstreamClient;
  /** This process's figure job runner (figure handlers wake it and wait on it). */
  figures: FigureJobRunner;
  /** Aborted when the caller cancels the call (an agent's cancellation): a handler starts no new work after it. */
  signal?: AbortSignal;
  /** Set when the caller is told how a long call goes (an agent that sent a progress token); handlers report their steps to it. */
  progress?: ProgressReporter;
}
