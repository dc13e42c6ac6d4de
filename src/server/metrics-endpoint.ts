/**
 * GET /metrics (src/metrics.ts counts). With METRICS_TOKEN set, only for `Authorization: Bearer
 * <token>`: compared in constant time (both sides hashed first, so that neither the time nor the
 * length of the comparison says anything about the token), and a wrong or missing token meets the
 * same failed-attempt limit per client address as a wrong API key (auth.ts), so it cannot be guessed
 * at speed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.ts';
import { metricsText } from '../metrics.ts';
import type { RateLimits } from './rate-limits.ts';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

export function metricsHandler(token: string | undefined, limits: Pick<RateLimits, 'checkAddress' | 'recordFailedKey'>): RequestHandler {
  const expected = token === undefined ? undefined : sha256(`Bearer ${token}`);
  return async (request, response) => {
    if (expected) {
      const presented = request.get('authorization');
      if (presented === undefined || !timingSafeEqual(sha256(presented), expected)) {
        const address = request.ip ?? 'unknown';
        limits.checkAddress(address);
        if (presented !== undefined) await limits.recordFailedKey(address);
        throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
      }
    }
    const { contentType, text } = await metricsText();
    response.set('Content-Type', contentType).send(text);
  };
}
