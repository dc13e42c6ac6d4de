/**
 * Tool handlers for tests of the server itself (charging, limits, errors) while the tools'
 * connectors are built elsewhere: the real handlers, with search_papers answering a fixed record,
 * lookup_integer_sequence failing upstream without asking the network, and get_paper failing with
 * an unexpected error.
 */
import type { ToolHandlers } from '../../generated/routes.ts';
import type { SearchPapersData, ToolOutcome } from '../../generated/types.ts';
import { ApiError } from '../../src/errors.ts';
import { createHandlers } from '../../src/tools/handlers.ts';
import type { ToolContext } from '../../src/tools/context.ts';

/** The fixed answer of the stub search_papers (the benchmark's bare servers answer it too). */
export function stubSearchAnswer(query: unknown): ToolOutcome<SearchPapersData> {
  return {
    summary: `1 paper for "${String(query)}".`,
    records: [
      {
        id: 'openalex:W2741809807',
        type: 'paper',
        source: 'openalex',
        title: 'The state of OA',
        license: 'CC0-1.0',
        attribution: 'OpenAlex',
        retrievedAt: '2026-01-01T00:00:00.000Z',
        data: { found_in: ['openalex'], year: 2018 },
      },
    ],
  };
}

export function stubHandlers(): ToolHandlers<ToolContext> {
  return {
    ...createHandlers(),
    search_papers: async (args) => stubSearchAnswer(args.query),
    lookup_integer_sequence: async () => {
      throw new ApiError('upstream_error', 'no source answered: oeis did not answer within 15000 ms');
    },
    get_paper: async () => {
      throw new Error('simulated bug with a secret stack');
    },
  };
}
