import { LedgerError } from './errors.ts';

const MAX_NAME_LENGTH = 255;

export function requireSafeInteger(value: number, what: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new LedgerError('invalid_input', `${what} must be an integer >= ${min}, got ${String(value)}`);
  }
}

/** A trimmed, non-empty label that fits its column. */
export function requireName(name: string, what: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed || trimmed.length > MAX_NAME_LENGTH) {
    throw new LedgerError('invalid_input', `${what} must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return trimmed;
}

export function requireCallId(callId: string): void {
  if (typeof callId !== 'string' || callId.length === 0 || callId.length > 64) {
    throw new LedgerError('invalid_input', 'callId must be 1 to 64 characters');
  }
}
