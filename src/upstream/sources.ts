/**
 * The runtime settings of each upstream source: the manifest's entry (generated/tools.ts) with the
 * operator's overrides (SOURCE_<ID>_URL, SOURCE_<ID>_KEY, SOURCE_<ID>_TIMEOUT_MS,
 * SOURCE_<ID>_BUDGET_<WINDOW>) applied, and the "host group" whose request-rate and concurrency
 * limit, and whose budget counts, the source shares.
 */
import { sources, type SourceMetadata } from '../../generated/tools.ts';
import type { SourceId } from '../../generated/types.ts';
import type { SourceOverride } from '../config.ts';
import { resolveBudget, type DeclaredBudget, type ResolvedBudget } from './budget-windows.ts';

export interface ResolvedSource {
  id: SourceId;
  title: string;
  baseUrl: string;
  key: string | undefined;
  keyNeed: SourceMetadata['key'];
  timeoutMs: number;
  cacheTtlS: number;
  /** Largest body read from the source, counted after decompression; a longer one fails the request. */
  maxBodyBytes: number;
  /** Redirects to the same host followed; a redirect to another host is never followed. */
  sameHostRedirects: number;
  license: string;
  attribution: string;
  /** Sources of one group share one queue: one published limit per host or per account. */
  hostGroup: string;
  /** The documented quotas counted across processes (with the operator's overrides); undefined: none. Counted per host group. */
  budget: ResolvedBudget | undefined;
}

/** The body cap of a source whose manifest entry sets no max_body_bytes. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface HostGroupLimit {
  requestsPerSecond: number;
  concurrency: number;
}

/**
 * Sources that share one upstream limit. NCBI's E-utilities allow 3 requests/s per IP without a key
 * (10/s with one) across all its databases, so its sources are paced together: at the keyed pace
 * once every source of the group has a key (the same E-utilities key in SOURCE_PUBMED_KEY,
 * SOURCE_NCBI_GENE_KEY and SOURCE_GEO_KEY), otherwise at the keyless one.
 */
export const hostGroups: Record<string, { sources: readonly SourceId[]; limit?: HostGroupLimit; limitWithKey?: HostGroupLimit }> = {
  ncbi: {
    sources: ['pubmed', 'ncbi-gene', 'geo'],
    limit: { requestsPerSecond: 3, concurrency: 3 },
    limitWithKey: { requestsPerSecond: 10, concurrency: 3 },
  },
};

/** `world-bank` → `WORLD_BANK`, the form used in the SOURCE_<ID>_… variables. */
export function variableId(source: string): string {
  return source.toUpperCase().replace(/-/g, '_');
}

export function hostGroupOf(source: SourceId): string {
  for (const [group, entry] of Object.entries(hostGroups)) if (entry.sources.includes(source)) return group;
  return source;
}

/** Whether every source of a host group has a key configured (a source outside any group: whether it has one). */
export function hostGroupKeyed(group: string, overrides: Record<string, SourceOverride>): boolean {
  const members = hostGroups[group]?.sources ?? [group];
  return members.every((id) => overrides[variableId(id)]?.key !== undefined);
}

/** The limit of a host group: the group's own when declared (its keyed one when `keyed`), otherwise the strictest of its members'. */
export function hostGroupLimit(group: string, keyed = false): HostGroupLimit {
  const entry = hostGroups[group];
  if (keyed && entry?.limitWithKey) return entry.limitWithKey;
  if (entry?.limit) return entry.limit;
  const members = entry ? entry.sources : [group as SourceId];
  const limits = members.map((id) => sources[id].rateLimit);
  return {
    requestsPerSecond: Math.min(...limits.map((limit) => limit.requestsPerSecond)),
    concurrency: Math.min(...limits.map((limit) => limit.concurrency)),
  };
}

export function resolveSource(id: SourceId, overrides: Record<string, SourceOverride>): ResolvedSource {
  const meta: SourceMetadata = sources[id];
  const override = overrides[variableId(id)] ?? {};
  const hostGroup = hostGroupOf(id);
  const declared = ('budget' in meta ? meta.budget : undefined) as DeclaredBudget | undefined;
  return {
    id,
    title: meta.title,
    baseUrl: (override.url ?? meta.baseUrl).replace(/\/+$/, ''),
    key: override.key,
    keyNeed: meta.key,
    timeoutMs: override.timeoutMs ?? meta.timeoutMs,
    cacheTtlS: meta.cacheTtlS,
    maxBodyBytes: 'maxBodyBytes' in meta ? meta.maxBodyBytes : DEFAULT_MAX_BODY_BYTES,
    sameHostRedirects: 'sameHostRedirects' in meta ? meta.sameHostRedirects : 0,
    license: meta.license,
    attribution: meta.attribution,
    hostGroup,
    budget: resolveBudget(declared, override.budgets ?? {}, hostGroupKeyed(hostGroup, overrides)),
  };
}
