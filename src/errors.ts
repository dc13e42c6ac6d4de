/**
 * Errors are values with a code. Every error answer of the API is made from an ApiError, and the
 * error middleware at the end of the app is the one place where anything becomes an HTTP status.
 */
import { errorStatus, type ErrorCode } from '../generated/errors.ts';

export type { ErrorCode };

/** Codes and statuses are listed once, in codegen/errors.ts (published in openapi.json too). */
const statusOf: Record<ErrorCode, number> = errorStatus;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return statusOf[this.code];
  }
}

/** `text` as an error message shows what a client sent: at most `max` characters, cut with an ellipsis. */
export function clip(text: string, max = 100): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
