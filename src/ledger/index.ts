/**
 * The ledger: accounts, their credits and the charge of each call. What it guarantees, and what
 * enforces each guarantee (an index, a constraint, the lock order, a piece of code), is the
 * Guarantees table of docs/ledger.md. A call's charge has one owner, CallCharge (charge.ts).
 */
export { LEDGER_ENTRY_KINDS, type LedgerEntryKind } from '../database/migrations.ts';
export { LedgerError, type LedgerErrorCode } from './errors.ts';
export { createAccount, getAccount, addCredits, type Account, type AccountSummary } from './accounts.ts';
export {
  createKey,
  listKeys,
  deleteKey,
  renameKey,
  authenticateKey,
  hashKey,
  KEY_PREFIX,
  type CreatedKey,
  type KeyListing,
  type AuthenticatedKey,
} from './keys.ts';
export { PACK_IDS, isPackId, setPackEnabled, packSettings, enabledPacks, isPackEnabled, type PackId, type PackSettings } from './packs.ts';
export { ledgerSum, getBalance } from './credits.ts';
export { recordChange, listChanges, OPERATOR, type Actor, type AccountChange, type ChangeAction } from './changes.ts';
export { recordCall, usage, usageSummary, type CallRecord, type UsageEntry, type UsageSummary, type UsageTotals } from './calls.ts';
export { hold, capture, release, findHold, findSettlement, type Held, type HoldResult, type Settlement } from './holds.ts';
export {
  holdForCall,
  holdAhead,
  settleCall,
  recordCallReliably,
  releaseIfHeld,
  releaseInDoubt,
  refundCapture,
  CallLedger,
  type HeldAhead,
  type HoldOptions,
  type SettleOptions,
} from './settlement.ts';
export { CallCharge, type ChargeState, type ChargeWriter, type ChargeTracker, type Charged, type PendingHold } from './charge.ts';
export { CallBatches, type BatchedHold, type BatchedHoldAhead, type BatchedSettlement } from './call-batches.ts';
export { releaseExpiredHolds, releaseHoldsOfExpiredLeases, HoldReconciler } from './reconcile.ts';
export { ProcessLease, type LeaseHolder, type LeaseOptions } from './leases.ts';
export { LedgerGate, HOLDS_PER_ACCOUNT, HOLDS_IN_ALL } from './gate.ts';
export {
  claimIdempotencyKey,
  storeIdempotentAnswer,
  releaseIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  IDEMPOTENCY_TTL_MS,
  type Claim,
  type StoredAnswer,
} from './idempotency.ts';
