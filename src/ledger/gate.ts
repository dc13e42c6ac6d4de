/**
 * Admission to the database for the ledger writes of charged calls, in one process: at most
 * `perAccount` at once for one account and `total` at once in all. Writes on one account queue on
 * its row lock anyway, so letting more of them in would only park pooled connections behind a hot
 * or locked account; the rest of the pool stays free for other accounts, free calls and /readyz.
 */
import { LedgerError } from './errors.ts';

/** Holds one process takes at once for one account, and in all: 6 of the pool's 10 connections. */
export const HOLDS_PER_ACCOUNT = 2;
export const HOLDS_IN_ALL = 6;

interface Waiter {
  accountId: string;
  admit: () => void;
}

export class LedgerGate {
  private running = 0;
  private readonly perAccountRunning = new Map<string, number>();
  private waiting: Waiter[] = [];

  constructor(
    private readonly perAccount: number,
    private readonly total: number,
  ) {}

  /** Waits for a place until `deadline` (epoch ms); returns the function that gives it back. Throws LedgerError busy when none came. */
  async enter(accountId: string, deadline: number): Promise<() => void> {
    if (!this.canRun(accountId)) {
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          accountId,
          admit: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(
          () => {
            this.waiting = this.waiting.filter((other) => other !== waiter);
            reject(new LedgerError('busy', 'too many charged calls are waiting for this account'));
          },
          Math.max(0, deadline - Date.now()),
        );
        this.waiting.push(waiter);
      });
    } else {
      this.take(accountId);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(accountId);
    };
  }

  private canRun(accountId: string): boolean {
    return this.running < this.total && (this.perAccountRunning.get(accountId) ?? 0) < this.perAccount;
  }

  private take(accountId: string): void {
    this.running += 1;
    this.perAccountRunning.set(accountId, (this.perAccountRunning.get(accountId) ?? 0) + 1);
  }

  private leave(accountId: string): void {
    this.running -= 1;
    const count = (this.perAccountRunning.get(accountId) ?? 1) - 1;
    if (count === 0) this.perAccountRunning.delete(accountId);
    else this.perAccountRunning.set(accountId, count);
    // Oldest first, skipping waiters whose account is still at its limit.
    for (const waiter of [...this.waiting]) {
      if (!this.canRun(waiter.accountId)) continue;
      this.waiting = this.waiting.filter((other) => other !== waiter);
      this.take(waiter.accountId);
      waiter.admit();
    }
  }
}
