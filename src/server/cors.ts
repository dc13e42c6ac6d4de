/**
 * CORS for the origins an operator lists in CORS_ORIGINS (off otherwise): browsers on those origins
 * may send keys and JSON, and read the rate-limit and credit headers of the answers.
 */
import cors from 'cors';
import type { RequestHandler } from 'express';

export function corsFor(origins: readonly string[]): RequestHandler {
  return cors({
    origin: [...origins],
    methods: ['GET', 'POST'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Credits-Remaining'],
    maxAge: 600,
  });
}
