/**
 * The Node/V8 flags a server process starts with: `npm start` passes them (package.json), and so do
 * the server processes of the tests and the benchmark (test/support/processes.ts); a test checks the
 * two agree. V8 reads them when it creates the heap, so neither the process itself nor NODE_OPTIONS
 * can set them.
 *
 * --initial-old-space-size=256: under load a server process moves a few MB/s of short-lived objects
 * (those of the calls in flight at a young-generation collection) into the old generation. From
 * V8's default starting size that space filled every few seconds, and each full mark-compact of the
 * server's heap (some 40–60 MB of modules, schemas and code) cost tens of milliseconds of p99
 * latency on two cores; after an idle pause V8 shrinks the limit again. With 256 MB a full
 * collection comes about once a minute at a thousand calls per second. It is a starting limit, not
 * a reservation: pages are taken as the heap grows (docs/operations.md).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=256'];
