/**
 * The upstream layer's shared state (./types.ts): the memory store is here; the Redis store is in
 * ./redis.ts; the database store, and the choice between Redis and the database, are in
 * src/server/upstream-state.ts (the upstream layer does not import the ledger's statements).
 */
export { MemoryUpstreamState } from './memory.ts';
export { RedisUpstreamState } from './redis.ts';
export type { BreakerChange, CountedWindow, SharedUpstreamState, SourceFailure, SourceStatus } from './types.ts';
