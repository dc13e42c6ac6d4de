/**
 * Figures in the ledger database. A figure row is also its render job: pending (queued) →
 * rendering (claimed by one process, with a lease) → finished | failed. Every change of state is a
 * conditional UPDATE, and finishing or failing happens in one transaction with the ledger's
 * capture or release, so credits are captured exactly once or released, never both.
 */
import type { Knex } from 'knex';
import { randomBase62 } from '../database/ids.ts';
import { toDate } from '../database/time.ts';
import { capture, hold, release } from '../ledger/index.ts';
import { inTransaction } from '../database/index.ts';
import { checkFiles, insertFiles, type FigureFile } from './files.ts';
import type { FigureSpec } from './model.ts';

export type FigureStatus = 'pending' | 'rendering' | 'finished' | 'failed';

export interface FigureRow {
  id: string;
  accountId: string;
  parentId: string | null;
  callId: string;
  status: FigureStatus;
  spec: FigureSpec;
  instruction: string | null;
  price: number;
  creditsCharged: number;
  attempts: number;
  claimedBy: string | null;
  fileToken: string | null;
  width: number | null;
  height: number | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export function newFigureId(): string {
  return `fig_${randomBase62(24)}`;
}

function toRow(row: Record<string, unknown>): FigureRow {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    parentId: (row.parent_id as string | null) ?? null,
    callId: row.call_id as string,
    status: row.status as FigureStatus,
    spec: JSON.parse(row.spec as string) as FigureSpec,
    instruction: (row.instruction as string | null) ?? null,
    price: Number(row.price),
    creditsCharged: Number(row.credits_charged),
    attempts: Number(row.attempts),
    claimedBy: (row.claimed_by as string | null) ?? null,
    fileToken: (row.file_token as string | null) ?? null,
    width: row.width === null || row.width === undefined ? null : Number(row.width),
    height: row.height === null || row.height === undefined ? null : Number(row.height),
    error: (row.error as string | null) ?? null,
    createdAt: toDate(row.created_at),
    finishedAt: row.finished_at === null || row.finished_at === undefined ? null : toDate(row.finished_at),
  };
}

export type InsertResult = { ok: true; figure: FigureRow } | { ok: false; balance: number };

/** Holds the price and queues the figure, in one transaction; `ok: false` when the balance is short. */
export async function insertFigure(
  db: Knex,
  input: { id: string; accountId: string; callId: string; queue: string; parentId?: string; instruction?: string; spec: FigureSpec; price: number },
): Promise<InsertResult> {
  return inTransaction(db, async (trx) => {
    const held = await hold(db, { callId: input.callId, accountId: input.accountId, credits: input.price }, trx);
    if (!held.ok) return { ok: false, balance: held.balance };
    const now = new Date();
    await trx('figures').insert({
      id: input.id,
      account_id: input.accountId,
      parent_id: input.parentId ?? null,
      call_id: input.callId,
      queue: input.queue,
      status: 'pending',
      kind: input.spec.kind,
      style: input.spec.style,
      aspect_ratio: input.spec.aspectRatio,
      description: input.spec.description,
      instruction: input.instruction ?? null,
      spec: JSON.stringify(input.spec),
      price: input.price,
      created_at: now,
    });
    const row: Record<string, unknown> = await trx('figures').where({ id: input.id }).first();
    return { ok: true, figure: toRow(row) };
  });
}

/** The figure if it belongs to the account; undefined for an unknown id and for another account's alike. */
export async function findFigure(db: Knex, accountId: string, id: string): Promise<FigureRow | undefined> {
  const row: Record<string, unknown> | undefined = await db('figures').where({ id, account_id: accountId }).first();
  return row ? toRow(row) : undefined;
}

export async function readFigure(db: Knex, id: string): Promise<FigureRow | undefined> {
  const row: Record<string, unknown> | undefined = await db('figures').where({ id }).first();
  return row ? toRow(row) : undefined;
}

export interface ClaimOptions {
  /** Who claims (process id); each claim gets its own token beginning with it. */
  owner: string;
  /** Only figures of this queue are taken. */
  queue: string;
  /** A claim older than this is taken to belong to a process that died. */
  leaseMs: number;
  maxAttempts: number;
}

const skipLockedSupport = new WeakMap<Knex, boolean>();

/** MySQL 8 and MariaDB 10.6+ can skip rows other transactions have locked. */
async function hasSkipLocked(db: Knex): Promise<boolean> {
  let known = skipLockedSupport.get(db);
  if (known === undefined) {
    const [rows] = (await db.raw('select version() as version')) as [Array<{ version: string }>];
    const version = rows[0]?.version ?? '';
    const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
    known = /mariadb/i.test(version) ? major > 10 || (major === 10 && minor >= 6) : major >= 8;
    skipLockedSupport.set(db, known);
  }
  return known;
}

function claimable(query: Knex.QueryBuilder, queue: string, cutoff: Date): Knex.QueryBuilder {
  return query
    .where('queue', queue)
    .andWhere((where) => where.where('status', 'pending').orWhere((stale) => stale.where('status', 'rendering').andWhere('claimed_at', '<', cutoff)));
}

/**
 * Takes the oldest queued figure (or one whose claim has expired) for rendering. On MySQL the row
 * is locked with SELECT … FOR UPDATE, skipping rows other processes hold (SKIP LOCKED); SQLite
 * serialises writers, so one UPDATE picks and claims. A figure that has used up its attempts is
 * failed (and its credits released) instead of claimed again.
 */
export async function claimNext(db: Knex, options: ClaimOptions): Promise<FigureRow | undefined> {
  for (let guard = 0; guard < 20; guard++) {
    const token = `${options.owner}:${randomBase62(10)}`.slice(0, 64);
    const now = new Date();
    const cutoff = new Date(now.getTime() - options.leaseMs);
    let claimedId: string | undefined;
    if (db.client.dialect === 'mysql') {
      const skip = await hasSkipLocked(db);
      claimedId = await inTransaction(db, async (trx) => {
        const query = claimable(trx('figures').select('id'), options.queue, cutoff).orderBy('created_at').limit(1).forUpdate();
        const picked: { id: string } | undefined = (await (skip ? query.skipLocked() : query))[0];
        if (!picked) return undefined;
        await trx('figures')
          .where({ id: picked.id })
          .update({ status: 'rendering', claimed_by: token, claimed_at: now, attempts: trx.raw('attempts + 1') });
        return picked.id;
      });
    } else {
      const updated = await db('figures')
        .whereIn('id', claimable(db('figures').select('id'), options.queue, cutoff).orderBy('created_at').limit(1))
        .update({ status: 'rendering', claimed_by: token, claimed_at: now, attempts: db.raw('attempts + 1') });
      if (updated > 0) claimedId = (await db('figures').where({ claimed_by: token }).first('id'))?.id as string | undefined;
    }
    if (!claimedId) return undefined;
    const figure = (await readFigure(db, claimedId))!;
    if (figure.claimedBy !== token) continue;
    if (figure.attempts > options.maxAttempts) {
      await failFigure(db, figure.id, token, `rendering was interrupted ${options.maxAttempts} times`);
      continue;
    }
    return figure;
  }
  return undefined;
}

/**
 * Marks a claimed figure finished, stores its files and captures its held credits, all in one
 * transaction: a finished figure always has its files. False when the claim was lost.
 */
export async function finishFigure(
  db: Knex,
  id: string,
  token: string,
  image: { fileToken: string; width: number; height: number; files: readonly FigureFile[] },
): Promise<boolean> {
  checkFiles(image.files);
  return inTransaction(db, async (trx) => {
    const now = new Date();
    const moved = await trx('figures').where({ id, status: 'rendering', claimed_by: token }).update({
      status: 'finished',
      file_token: image.fileToken,
      width: image.width,
      height: image.height,
      finished_at: now,
      claimed_by: null,
    });
    if (moved === 0) return false;
    await insertFiles(trx, id, image.files);
    const row: { call_id: string } = await trx('figures').where({ id }).first('call_id');
    const captured = await capture(trx, row.call_id);
    await trx('figures').where({ id }).update({ credits_charged: captured });
    return true;
  });
}

/** Marks a claimed figure failed and releases its held credits; false when the claim was lost. */
export async function failFigure(db: Knex, id: string, token: string, error: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const moved = await trx('figures')
      .where({ id, status: 'rendering', claimed_by: token })
      .update({
        status: 'failed',
        error: error.slice(0, 2000),
        finished_at: new Date(),
        claimed_by: null,
      });
    if (moved === 0) return false;
    const row: { call_id: string } = await trx('figures').where({ id }).first('call_id');
    await release(trx, row.call_id);
    return true;
  });
}

/** Puts a claimed figure back in the queue (a process stopping cleanly); its attempt is not counted. */
export async function returnFigure(db: Knex, id: string, token: string): Promise<void> {
  await db('figures')
    .where({ id, status: 'rendering', claimed_by: token })
    .update({ status: 'pending', claimed_by: null, claimed_at: null, attempts: db.raw('attempts - 1') });
}
