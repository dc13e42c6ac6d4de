/** The arithmetic of budget windows: what counts, when a window resets, how a source's budget is resolved. */
import { expect } from 'chai';
import {
  MILLIONTHS,
  admits,
  costOf,
  resetAt,
  resolveBudget,
  spentUntil,
  usedOf,
  type BudgetWindow,
  type DeclaredBudget,
  type WindowCount,
} from '../../src/upstream/budget-windows.ts';

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 4, 1);
const openalex: DeclaredBudget = {
  unit: 'usd',
  kinds: { singleton: 0, list: 0.0001, search: 0.001 },
  windows: [{ per: 'day', reset: 'midnight_utc', limit: 1 }],
  spentSignal: { status: 429, window: 'day' },
};
const bls: DeclaredBudget = { unit: 'requests', windows: [{ per: 'day', reset: 'rolling', limit: 500, limitWithoutKey: 25 }] };

const count = (slots: Array<[number, number]>, spent = 0): WindowCount => ({ slots: new Map(slots), spentUntil: spent });

describe('budget windows', () => {
  describe('a day reset at midnight UTC', () => {
    const day = resolveBudget(openalex, {}, true)!.windows[0]!;

    it('is one slot, the UTC day, limited in millionths of a dollar', () => {
      expect(day).to.deep.include({ per: 'day', reset: 'midnight_utc', limit: MILLIONTHS, slotMs: DAY, span: 0 });
    });
    it("counts only today's slot: yesterday's spending is forgotten at midnight", () => {
      const today = MIDNIGHT / DAY;
      const spent = count([
        [today - 1, 900_000],
        [today, 300_000],
      ]);
      expect(usedOf(day, spent, MIDNIGHT + 1000)).to.equal(300_000);
    });
    it('admits a search while $0.001 is left, refuses it once less is, and resets at the next midnight', () => {
      const today = MIDNIGHT / DAY;
      const noon = MIDNIGHT + DAY / 2;
      expect(admits(day, count([[today, 999_000]]), 1000, noon)).to.equal(true);
      expect(admits(day, count([[today, 999_001]]), 1000, noon)).to.equal(false);
      expect(resetAt(day, count([[today, 999_001]]), 1000, noon)).to.equal(MIDNIGHT + DAY);
    });
    it('refuses even a free request while the upstream says the day is spent, until the next midnight', () => {
      const noon = MIDNIGHT + DAY / 2;
      const until = spentUntil(day, noon);
      expect(until).to.equal(MIDNIGHT + DAY);
      expect(admits(day, count([], until), 0, noon)).to.equal(false);
      expect(admits(day, count([], until), 0, until)).to.equal(true);
    });
  });

  describe('a rolling window', () => {
    const window = resolveBudget(bls, {}, true)!.windows[0]!;
    const slotMs = DAY / 20;

    it('is counted in twentieths, each counting until the whole of it has left the last 24 hours', () => {
      expect(window).to.deep.include({ slotMs, span: 20 });
      const sentAt = MIDNIGHT + 10; // in slot MIDNIGHT/slotMs
      const first = MIDNIGHT / slotMs;
      const counted = count([[first, 500 * MILLIONTHS]]);
      // 24 hours after the request it still counts (its slot has not wholly left the window) ...
      expect(usedOf(window, counted, sentAt + DAY)).to.equal(500 * MILLIONTHS);
      expect(admits(window, counted, MILLIONTHS, sentAt + DAY)).to.equal(false);
      // ... and the window reopens once the slot has: 24 hours and one slot after the slot began.
      expect(resetAt(window, counted, MILLIONTHS, sentAt + DAY)).to.equal(MIDNIGHT + DAY + slotMs);
      expect(admits(window, counted, MILLIONTHS, MIDNIGHT + DAY + slotMs)).to.equal(true);
    });
    it('resets when enough of the oldest slots have left, not all of them', () => {
      const start = MIDNIGHT / slotMs;
      const counted = count([
        [start, 200 * MILLIONTHS],
        [start + 5, 300 * MILLIONTHS],
      ]);
      const now = (start + 6) * slotMs;
      expect(resetAt(window, counted, MILLIONTHS, now)).to.equal((start + 21) * slotMs);
      expect(resetAt(window, counted, 250 * MILLIONTHS, now)).to.equal((start + 26) * slotMs);
    });
  });

  describe('resolving a source budget', () => {
    it('takes the limit without a key while no key is configured', () => {
      expect(resolveBudget(bls, {}, false)!.windows[0]!.limit).to.equal(25 * MILLIONTHS);
      expect(resolveBudget(bls, {}, true)!.windows[0]!.limit).to.equal(500 * MILLIONTHS);
    });
    it("replaces a window's limit with the operator's, drops one set off, and adds an undeclared one as rolling", () => {
      const paid = resolveBudget(openalex, { day: 25, minute: 120 }, true)!;
      expect(paid.windows.map((window: BudgetWindow) => [window.per, window.reset, window.limit, window.origin])).to.deep.equal([
        ['minute', 'rolling', 120 * MILLIONTHS, 'configuration'],
        ['day', 'midnight_utc', 25 * MILLIONTHS, 'configuration'],
      ]);
      expect(resolveBudget(openalex, { day: 'off' }, true)).to.equal(undefined);
      expect(resolveBudget(undefined, { hour: 1000 }, false)!.windows[0]).to.deep.include({ per: 'hour', reset: 'rolling', limit: 1000 * MILLIONTHS });
    });
    it('costs a request by its kind, an untagged one as the dearest kind, and refuses a kind the source does not declare', () => {
      const budget = resolveBudget(openalex, {}, true)!;
      expect([costOf(budget, 'openalex', 'singleton'), costOf(budget, 'openalex', 'list'), costOf(budget, 'openalex', 'search')]).to.deep.equal([0, 100, 1000]);
      expect(costOf(budget, 'openalex', undefined)).to.equal(1000);
      expect(() => costOf(budget, 'openalex', 'semantic')).to.throw(
        'openalex declares no request kind "semantic" in tools.yaml (its kinds: singleton, list, search)',
      );
      expect(costOf(resolveBudget(bls, {}, true)!, 'bls', undefined)).to.equal(MILLIONTHS);
    });
  });
});
