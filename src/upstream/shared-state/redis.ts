/**
 * The shared state in Redis: one hash per budget window (`research-tools:budget:<host group>:<per>`,
 * slot index → amount, and `spent_until`), taken and added to by one Lua script so that processes
 * never admit more than the limit together; one hash of source statuses (`<source>:breaker`,
 * `<source>:failure` → JSON). While Redis cannot be reached every take fails, and the request is
 * not sent (budgets fail closed: a source that cannot be counted is not asked).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { WindowCount } from '../budget-windows.ts';
import type { BreakerChange, CountedWindow, SharedUpstreamState, SourceFailure, SourceStatus } from './types.ts';

const BUDGET_PREFIX = 'research-tools:budget:';
const STATUS_KEY = 'research-tools:source-status';

/**
 * KEYS: the windows' hashes. ARGV: now, cost, then per window its slot length, span and limit.
 * Forgets slots that no longer count (and does not count slots further ahead than the window reaches back); admits when no window is marked spent and every count plus
 * the cost stays within its limit; then adds the cost to each window's current slot. Returns the
 * verdict and, per window, its slots (index, amount, …) and spent_until, after the addition.
 * (The same rule as admits() of budget-windows.ts, which the other stores call.)
 */
const TAKE = `
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local admitted = 1
local windows = {}
for i, key in ipairs(KEYS) do
  local slotMs = tonumber(ARGV[3 * i])
  local span = tonumber(ARGV[3 * i + 1])
  local limit = tonumber(ARGV[3 * i + 2])
  local current = math.floor(now / slotMs)
  local flat = redis.call('HGETALL', key)
  local used = 0
  local spent = 0
  local slots = {}
  for j = 1, #flat, 2 do
    local field = flat[j]
    local amount = tonumber(flat[j + 1])
    if field == 'spent_until' then
      spent = amount
    elseif tonumber(field) < current - span then
      redis.call('HDEL', key, field)
    elseif tonumber(field) <= current + span then
      used = used + amount
      slots[field] = amount
    end
  end
  if spent > now or used + cost > limit then admitted = 0 end
  windows[i] = { current = current, slots = slots, spent = spent, ttl = (span + 2) * slotMs }
end
local result = { admitted }
for i, key in ipairs(KEYS) do
  local window = windows[i]
  if admitted == 1 and cost > 0 then
    local slot = string.format('%d', window.current)
    window.slots[slot] = redis.call('HINCRBY', key, slot, cost)
    local ttl = math.max(window.ttl, window.spent - now)
    redis.call('PEXPIRE', key, math.floor(ttl))
  end
  local flat = {}
  for slot, amount in pairs(window.slots) do
    table.insert(flat, slot)
    table.insert(flat, string.format('%d', amount))
  end
  table.insert(result, flat)
  table.insert(result, string.format('%d', window.spent))
end
return result
`;

/** KEYS: one window. ARGV: until, ttl. Keeps the later of the two marks. */
const MARK_SPENT = `
local old = tonumber(redis.call('HGET', KEYS[1], 'spent_until') or '0')
local until = tonumber(ARGV[1])
if until > old then redis.call('HSET', KEYS[1], 'spent_until', ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
`;

type TakeReply = [number, ...Array<string[] | string>];

function countsFrom(reply: Array<string[] | string>): WindowCount[] {
  const counts: WindowCount[] = [];
  for (let index = 0; index < reply.length; index += 2) {
    const flat = reply[index] as string[];
    const slots = new Map<number, number>();
    for (let field = 0; field < flat.length; field += 2) slots.set(Number(flat[field]), Number(flat[field + 1]));
    counts.push({ slots, spentUntil: Number(reply[index + 1]) });
  }
  return counts;
}

export class RedisUpstreamState implements SharedUpstreamState {
  private readonly redis: Redis;

  constructor(url: string, logger?: Logger) {
    this.redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.redis.on('error', (error: Error) => logger?.warn({ err: error.message }, 'upstream budgets: Redis error'));
  }

  private args(windows: CountedWindow[], now: number, cost: number): Array<string | number> {
    return [...windows.map((window) => BUDGET_PREFIX + window.key), now, cost, ...windows.flatMap((window) => [window.slotMs, window.span, window.limit])];
  }

  async take(windows: CountedWindow[], cost: number, now: number): Promise<{ admitted: boolean; counts: WindowCount[] }> {
    const [admitted, ...rest] = (await this.redis.eval(TAKE, windows.length, ...this.args(windows, now, cost))) as TakeReply;
    return { admitted: admitted === 1, counts: countsFrom(rest) };
  }

  async read(windows: CountedWindow[], now: number): Promise<WindowCount[]> {
    // A take of nothing that is never admitted reads the counts without adding to them.
    const [, ...rest] = (await this.redis.eval(TAKE, windows.length, ...this.args(windows, now, Number.MAX_SAFE_INTEGER))) as TakeReply;
    return countsFrom(rest);
  }

  async markSpent(window: CountedWindow, until: number, now: number): Promise<void> {
    await this.redis.eval(MARK_SPENT, 1, BUDGET_PREFIX + window.key, until, Math.max(1, until - now));
  }

  async recordBreaker(source: string, change: BreakerChange): Promise<void> {
    await this.redis.hset(STATUS_KEY, `${source}:breaker`, JSON.stringify(change));
  }

  async recordFailure(source: string, failure: SourceFailure): Promise<void> {
    await this.redis.hset(STATUS_KEY, `${source}:failure`, JSON.stringify(failure));
  }

  async readStatuses(): Promise<Record<string, SourceStatus>> {
    const fields = await this.redis.hgetall(STATUS_KEY);
    const statuses: Record<string, SourceStatus> = {};
    for (const [field, value] of Object.entries(fields)) {
      const [source, what] = field.split(':') as [string, string];
      const status = (statuses[source] ??= {});
      if (what === 'breaker') status.breaker = JSON.parse(value) as BreakerChange;
      else status.lastFailure = JSON.parse(value) as SourceFailure;
    }
    return statuses;
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
