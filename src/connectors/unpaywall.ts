/**
 * Unpaywall: the open-access status and best free copy of a DOI (`/{doi}?email=…`). Unpaywall
 * requires an email on every call: without CONTACT_EMAIL this source fails with a message naming it.
 * An unknown DOI is a 404: no open-access information, not an error.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { keepSlashes, path } from '../upstream/path.ts';

export const SOURCE = 'unpaywall' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export interface OpenAccess {
  doi: string;
  isOa: boolean;
  oaStatus?: string;
  url?: string;
  license?: string;
  version?: string;
  hostType?: string;
  journalIsInDoaj?: boolean;
}

export function parseDoi(body: unknown): OpenAccess | undefined {
  const top = obj(body);
  const doi = str(top?.doi);
  if (!top || !doi) return undefined;
  const best = obj(top.best_oa_location);
  return {
    doi: doi.toLowerCase(),
    isOa: top.is_oa === true,
    oaStatus: str(top.oa_status),
    url: str(best?.url_for_pdf) ?? str(best?.url) ?? str(best?.url_for_landing_page),
    license: str(best?.license),
    version: str(best?.version),
    hostType: str(best?.host_type),
    journalIsInDoaj: typeof top.journal_is_in_doaj === 'boolean' ? top.journal_is_in_doaj : undefined,
  };
}

export async function lookupDoi(upstream: UpstreamClient, doi: string): Promise<{ access?: OpenAccess; retrievedAt: string } | undefined> {
  if (!upstream.contactEmail) throw new UpstreamError(SOURCE, 'not_configured', 'unpaywall needs a contact address on every request: set CONTACT_EMAIL');
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/${keepSlashes(doi)}`, searchParams: { email: upstream.contactEmail } });
    return { access: parseDoi(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}
