/**
 * STRING: interaction partners of one protein, `GET /json/interaction_partners?identifiers=…&species=…&limit=…`.
 * The queried protein is side A; partners are `preferredName_B`, highest combined `score` first.
 * STRING asks for one call per second, none in parallel, and a caller_identity.
 */
import { PRODUCT, type UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'string' as const;

export interface Partner {
  partner: string;
  score: number;
  stringId?: string;
}

type Json = Record<string, unknown>;

export function parsePartners(body: unknown): Partner[] {
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with something other than a list of interactions`);
  const best = new Map<string, Partner>();
  for (const item of body as Json[]) {
    const partner = typeof item?.preferredName_B === 'string' ? item.preferredName_B : undefined;
    const score = typeof item?.score === 'number' ? item.score : Number(item?.score);
    if (!partner || !Number.isFinite(score)) continue;
    const previous = best.get(partner);
    if (!previous || previous.score < score) best.set(partner, { partner, score, stringId: typeof item.stringId_B === 'string' ? item.stringId_B : undefined });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.partner.localeCompare(b.partner));
}

export async function interactionPartners(
  upstream: UpstreamClient,
  identifier: string,
  taxonId: number,
  limit: number,
): Promise<{ partners: Partner[]; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, {
      path: '/json/interaction_partners',
      searchParams: { identifiers: identifier, species: taxonId, limit, caller_identity: PRODUCT },
    });
    return { partners: parsePartners(answer.body).slice(0, limit), retrievedAt: answer.retrievedAt };
  } catch (error) {
    // An identifier STRING does not know: no partners, not a failure.
    if (error instanceof UpstreamError && (error.status === 400 || error.status === 404)) return { partners: [], retrievedAt: new Date().toISOString() };
    throw error;
  }
}
