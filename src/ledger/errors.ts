/**
 * Failure codes the ledger reports; callers (HTTP server, admin CLI) map them to their own answers.
 * `busy`: the database did not let the work through in time (locks, lost connections, no free
 * connection); nothing was charged.
 */
export type LedgerErrorCode = 'not_found' | 'invalid_input' | 'conflict' | 'busy';

export class LedgerError extends Error {
  readonly code: LedgerErrorCode;

  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }
}
