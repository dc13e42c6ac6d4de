/**
 * The Node/V8 flags a server process starts with: `npm start` passes them (package.json), and so do
 * the server processes of the tests and the benchmark (test/support/processes.ts); a test checks the
 * two agree. V8 reads them when it creates the heap, so neither the process itself nor NODE_OPTIONS
 * can set them.
 *
 * --initial-old-space-size=512: under load a server process moves a few MB/s of objects that outlive
 * two young-generation collections into the old generation, where they soon die. From
 * V8's default starting size that space filled every few seconds, and each full mark-compact of the
 * server's heap (some 40–60 MB of modules, schemas and code) cost tens of milliseconds of p99
 * latency on two cores; after an idle pause V8 shrinks the limit again. With 512 MB a full
 * collection comes every two to three minutes at 1,600 calls per second (with 256 MB, about once a
 * minute, and the benchmark's steady rounds took one). It is a starting limit, not a reservation:
 * pages are taken as the heap grows (docs/operations.md).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=512'];
