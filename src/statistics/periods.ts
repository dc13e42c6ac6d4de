/**
 * Periods and values as the statistics tools give them: a period normalised to YYYY, YYYY-MM,
 * YYYY-Qn or YYYY-MM-DD with the first day of the period, frequencies named one way, `start`/`end`
 * bounds, and the one rule that a value the source marks as missing never becomes a number.
 */
import type { Frequency, Observation } from './series.ts';

/** A period as sources write it → normalised period and first day; undefined when unreadable. */
export function normalisePeriod(raw: string): { period: string; date: string } | undefined {
  const text = raw.trim();
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})$/.exec(text))) return { period: text, date: `${text}-01-01` };
  if ((match = /^(\d{4})-?M?(0[1-9]|1[0-2])$/.exec(text))) return { period: `${match[1]}-${match[2]}`, date: `${match[1]}-${match[2]}-01` };
  if ((match = /^(\d{4})-?Q([1-4])$/.exec(text))) {
    const month = String((Number(match[2]) - 1) * 3 + 1).padStart(2, '0');
    return { period: `${match[1]}-Q${match[2]}`, date: `${match[1]}-${month}-01` };
  }
  if ((match = /^(\d{4})-?S([12])$/.exec(text))) return { period: `${match[1]}-S${match[2]}`, date: `${match[1]}-${match[2] === '1' ? '01' : '07'}-01` };
  if ((match = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+Z?)?$/.exec(text))) return { period: match[1]!, date: match[1]! };
  return undefined;
}

/** The period of an observation dated by the first day of its period (FRED), in the series' frequency. */
export function periodOfDate(date: string, frequency: Frequency | undefined): { period: string; date: string } {
  const [year, month] = [date.slice(0, 4), date.slice(5, 7)];
  if (frequency === 'annual') return { period: year, date };
  if (frequency === 'quarterly') return { period: `${year}-Q${Math.floor((Number(month) - 1) / 3) + 1}`, date };
  if (frequency === 'monthly') return { period: `${year}-${month}`, date };
  return { period: date, date };
}

const FREQUENCIES: Array<[RegExp, Frequency]> = [
  [/^(a|annual|yearly|y)\b/i, 'annual'],
  [/^(sa|s|semiannual|semi-annual|half-yearly)\b/i, 'semiannual'],
  [/^(q|quarterly)\b/i, 'quarterly'],
  [/^(m|monthly)\b/i, 'monthly'],
  [/^(bw|biweekly)\b/i, 'biweekly'],
  [/^(w|weekly)\b/i, 'weekly'],
  [/^(d|daily|b|business daily)\b/i, 'daily'],
];

/** "Quarterly", "Q", "Weekly, Ending Friday", "M" … → the tools' frequency; undefined when unknown. */
export function frequencyOf(text: string | undefined): Frequency | undefined {
  if (!text) return undefined;
  return FREQUENCIES.find(([pattern]) => pattern.test(text.trim()))?.[1];
}

/** The frequency a normalised period shows. */
export function frequencyOfPeriod(period: string): Frequency {
  if (/^\d{4}$/.test(period)) return 'annual';
  if (/-Q\d$/.test(period)) return 'quarterly';
  if (/-S\d$/.test(period)) return 'semiannual';
  if (/^\d{4}-\d{2}$/.test(period)) return 'monthly';
  return 'daily';
}

/** The first day a `start` argument (YYYY, YYYY-MM or YYYY-MM-DD) allows. */
export function startDate(start: string): string {
  return start.length === 4 ? `${start}-01-01` : start.length === 7 ? `${start}-01` : start;
}

/** The last day an `end` argument allows (2020 → 2020-12-31, 2020-02 → 2020-02-29). */
export function endDate(end: string): string {
  if (end.length === 4) return `${end}-12-31`;
  if (end.length === 7) {
    const last = new Date(Date.UTC(Number(end.slice(0, 4)), Number(end.slice(5, 7)), 0));
    return last.toISOString().slice(0, 10);
  }
  return end;
}

/** Observations whose period begins within [start, end], oldest first. */
export function withinPeriod(observations: Observation[], start: string | undefined, end: string | undefined): Observation[] {
  const from = start ? startDate(start) : undefined;
  const to = end ? endDate(end) : undefined;
  return observations
    .filter((observation) => (!from || observation.date >= from) && (!to || observation.date <= to))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/**
 * A value as a number, or undefined when the source marks it as missing: null, '', FRED's ".",
 * BLS's "-", "NaN", and the large negative fill values (-999, -666666666, -999999999 …) some
 * sources write instead of a gap.
 */
export function valueOf(raw: unknown): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = typeof raw === 'number' ? undefined : String(raw).trim();
  if (text !== undefined && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
  const value = typeof raw === 'number' ? raw : Number(text);
  if (!Number.isFinite(value)) return undefined;
  if (isFillValue(value)) return undefined;
  return value;
}

/** -999, -9999, -666666666, -888888888, -999999999 …: repeated-digit negatives used as "no data". */
export function isFillValue(value: number): boolean {
  return Number.isInteger(value) && value <= -999 && /^-(9{3,}|6{6,}|8{6,}|2{6,}|3{6,}|5{6,})$/.test(String(value));
}

/** Source rows → observations: periods normalised, rows without a number or a readable period left out, oldest first. */
export function observationsFrom(rows: Array<{ period: string; value?: number; status?: string }>): Observation[] {
  const observations = rows.flatMap((row) => {
    const period = normalisePeriod(row.period);
    if (!period || row.value === undefined) return [];
    return [row.status ? { ...period, value: row.value, status: row.status } : { ...period, value: row.value }];
  });
  return withinPeriod(observations, undefined, undefined);
}
