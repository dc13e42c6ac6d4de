/**
 * The Node/V8 flags a server process starts with: `npm start` passes them (package.json), and so do
 * the server processes of the tests and the benchmark (test/support/processes.ts); a test checks the
 * two agree. V8 reads them when it creates the heap, so neither the process itself nor NODE_OPTIONS
 * can set them.
 *
 * --max-semi-space-size=16: each half of the young generation at most 16 MB, as Node 22 has it.
 * Node 24 lets the halves grow to 64 MB, which under load keeps far more memory resident for fewer
 * objects promoted into the old generation. The old generation is left to V8's own limit (a few
 * times what survives a full collection), so a process under the benchmark's loads stays within
 * 350 MB, with a full collection every several seconds of sustained load. A larger young generation
 * or a floor under the old generation's limit (`--initial-old-space-size`) makes full collections
 * rarer, and the tail latency shorter, for more memory: docs/operations.md has the figures and the
 * trade, docs/benchmarks.md the runs.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];
