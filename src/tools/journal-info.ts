/**
 * journal_info: one journal by name or ISSN (with or without the hyphen). OpenAlex gives the
 * publisher, counts, h-index and APC in US dollars; Crossref the publisher and DOI count by ISSN;
 * DOAJ the listing, licences and APC as published. Plain-language signals sum them up. There is
 * no Journal Impact Factor here, on purpose.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { JournalInfoArgs, JournalInfoData, SourceId } from '../../generated/types.ts';
import * as crossref from '../connectors/crossref.ts';
import * as doaj from '../connectors/doaj.ts';
import * as openalex from '../connectors/openalex.ts';
import type { ToolContext } from './context.ts';
import { assemble, fanOut, makeRecord, type FanOut, type SourceCall } from './result.ts';

/** `19326203` / `1932-6203` / `1932-620x` → `1932-6203`; undefined when the text is not an ISSN. */
export function parseIssn(text: string): string | undefined {
  const match = /^\s*(?:issn:?\s*)?(\d{4})-?(\d{3}[\dxX])\s*$/i.exec(text);
  return match ? `${match[1]}-${match[2]!.toUpperCase()}` : undefined;
}

type Found =
  | { kind: 'openalex'; value?: openalex.JournalSource; retrievedAt: string }
  | { kind: 'crossref'; value?: crossref.CrossrefJournal; retrievedAt: string }
  | { kind: 'doaj'; value?: doaj.DoajJournal; retrievedAt: string }
  | undefined;

const fmt = (n: number) => n.toLocaleString('en-US');

export function signalsOf(data: JournalInfoData): string[] {
  const signals: string[] = [];
  if (data.is_in_doaj === true) signals.push('Listed in the Directory of Open Access Journals (DOAJ).');
  else if (data.is_in_doaj === false) signals.push('Not listed in the Directory of Open Access Journals (DOAJ).');
  if (data.is_oa === true) signals.push('Fully open access: every article is free to read.');
  else if (data.is_oa === false) signals.push('Not fully open access: many articles need a subscription.');
  if (data.apc_usd !== undefined && data.apc_usd > 0) signals.push(`Charges authors an article processing charge of about US$${fmt(data.apc_usd)}.`);
  else if (data.has_apc === true) signals.push('Charges authors an article processing charge.');
  else if (data.has_apc === false) signals.push('Charges no article processing charge.');
  if (data.works_count !== undefined) {
    if (data.works_count < 100) signals.push(`Publishes few works (${fmt(data.works_count)} known).`);
    else signals.push(`${fmt(data.works_count)} works known.`);
  }
  if (data.h_index !== undefined) signals.push(`h-index ${data.h_index}: ${data.h_index} of its works have at least ${data.h_index} citations each.`);
  return signals;
}

export const journalInfo: ToolHandler<JournalInfoArgs, JournalInfoData, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const issn = parseIssn(args.journal);
  const name = args.journal.trim();
  const onUnexpected = (source: SourceId, error: unknown) => context.logger.error({ err: error, source }, 'connector failed unexpectedly');
  const calls: Array<SourceCall<Found>> = [
    {
      source: 'openalex',
      run: async () => {
        const found = await openalex.findSource(upstream, issn ? { issn } : { name });
        return { kind: 'openalex', value: found?.source, retrievedAt: found?.retrievedAt ?? '' };
      },
    },
    {
      source: 'doaj',
      run: async () => {
        const found = await doaj.searchJournals(upstream, issn ? { issn } : { title: name });
        return { kind: 'doaj', value: pickDoaj(found.journals, issn, name), retrievedAt: found.retrievedAt };
      },
    },
  ];
  if (issn)
    calls.push({
      source: 'crossref',
      run: async () => {
        const found = await crossref.getJournal(upstream, issn);
        return { kind: 'crossref', value: found?.journal, retrievedAt: found?.retrievedAt ?? '' };
      },
    });
  const fan: FanOut<Found> = await fanOut(calls, onUnexpected);
  const get = <K extends 'openalex' | 'crossref' | 'doaj'>(kind: K) =>
    fan.answered.map((entry) => entry.value).find((value) => value?.kind === kind && value.value) as Extract<Found, { kind: K }> | undefined;
  let alex = get('openalex');
  const lookupIssn = issn ?? alex?.value?.issnL ?? get('doaj')?.value?.issns[0];
  if (!issn && lookupIssn) {
    const second = await fanOut<Found>(
      [
        {
          source: 'crossref',
          run: async () => {
            const found = await crossref.getJournal(upstream, lookupIssn);
            return { kind: 'crossref', value: found?.journal, retrievedAt: found?.retrievedAt ?? '' };
          },
        },
      ],
      onUnexpected,
    );
    fan.answered.push(...second.answered);
    fan.failed.push(...second.failed);
  }
  alex = get('openalex');
  const cross = get('crossref');
  const listed = get('doaj');
  const a = alex?.value;
  const c = cross?.value;
  const d = listed?.value;
  if (!a && !c && !d) return assemble(fan, [], `No journal found for "${name}".`);
  const doajAnswered = fan.answered.some((entry) => entry.source === 'doaj');
  const issns = [...new Set([...(a?.issns ?? []), ...(c?.issns ?? []), ...(d?.issns ?? [])])];
  const usd = d?.apcPrices?.find((price) => price.currency === 'USD')?.price;
  const data: JournalInfoData = {
    publisher: a?.publisher ?? c?.publisher ?? d?.publisher,
    issn_l: a?.issnL ?? issns[0],
    issns: issns.length > 0 ? issns : undefined,
    is_oa: a?.isOa,
    is_in_doaj: d ? true : doajAnswered && a?.isInDoaj !== true ? false : a?.isInDoaj,
    has_apc: d?.hasApc ?? (a?.apcUsd !== undefined ? a.apcUsd > 0 : undefined),
    apc_usd: a?.apcUsd ?? usd,
    apc_prices: a?.apcPrices ?? d?.apcPrices,
    oa_licenses: d?.licenses,
    works_count: a?.worksCount ?? c?.totalDois,
    cited_by_count: a?.citedByCount,
    h_index: a?.hIndex,
    i10_index: a?.i10Index,
    two_year_mean_citedness: a?.twoYearMeanCitedness,
    homepage_url: a?.homepageUrl ?? d?.homepageUrl,
    country_code: a?.countryCode ?? d?.country,
    subjects: a?.subjects ?? d?.subjects ?? c?.subjects,
    openalex_id: a?.openalexId,
    doaj_id: d?.id,
    signals: [],
    found_in: [...(a ? ['openalex' as const] : []), ...(c ? ['crossref' as const] : []), ...(d ? ['doaj' as const] : [])],
  };
  data.signals = signalsOf(data);
  const primary = a
    ? { source: 'openalex' as const, id: a.openalexId, url: `https://openalex.org/${a.openalexId}`, at: alex!.retrievedAt }
    : c
      ? { source: 'crossref' as const, id: data.issn_l ?? c.title, url: undefined, at: cross!.retrievedAt }
      : { source: 'doaj' as const, id: d!.id, url: undefined, at: listed!.retrievedAt };
  const title = (a?.name ?? c?.title ?? d!.title).trim();
  const record = makeRecord<JournalInfoData>(upstream, primary.source, {
    nativeId: primary.id,
    type: 'journal',
    title,
    url: primary.url,
    retrievedAt: primary.at,
    data,
  });
  return assemble(
    fan,
    [record],
    `${title}${data.publisher ? ` (${data.publisher})` : ''}: ${data.signals.slice(0, 2).join(' ').replace(/\.$/, '') || 'journal found'}.`,
  );
};

function pickDoaj(journals: doaj.DoajJournal[], issn: string | undefined, name: string): doaj.DoajJournal | undefined {
  if (issn) return journals.find((journal) => journal.issns.includes(issn));
  const wanted = name.toLowerCase().replace(/\s+/g, ' ').trim();
  return journals.find((journal) => journal.title.toLowerCase().replace(/\s+/g, ' ').trim() === wanted);
}
