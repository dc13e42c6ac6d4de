/**
 * The bookkeeping of a tool that joins several sources into one answer: which sources answered,
 * which failed and which part of the answer each failure leaves out. It ends in the shared
 * `assemble` of src/tools/result.ts (partial / failedSources / 502 when nothing answered).
 */
import type { SourceId, ToolOutcome, ToolRecord } from '../../generated/types.ts';
import { assemble, describeFailure, type FanOut } from '../tools/result.ts';
import { UpstreamError } from '../upstream/errors.ts';

export class Join {
  private readonly answered = new Set<SourceId>();
  private readonly failed = new Map<SourceId, string>();

  constructor(private readonly onUnexpected?: (source: SourceId, error: unknown) => void) {}

  /**
   * Runs one call of `source`. On failure the source is listed once in failedSources with its own
   * reason and `missing` (the part of the record it leaves out), and undefined is returned.
   */
  async attempt<T>(source: SourceId, missing: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      const value = await run();
      this.answered.add(source);
      return value;
    } catch (error) {
      if (!(error instanceof UpstreamError)) this.onUnexpected?.(source, error);
      if (!this.failed.has(source)) this.failed.set(source, `${describeFailure(source, error)}; missing from the answer: ${missing}`);
      return undefined;
    }
  }

  hasFailed(source: SourceId): boolean {
    return this.failed.has(source);
  }

  fan(): FanOut<null> {
    return {
      answered: [...this.answered].map((source) => ({ source, value: null })),
      failed: [...this.failed].map(([source, error]) => ({ source, error })),
    };
  }

  /** The outcome: 502 when no source answered, partial when some failed. */
  outcome<Data>(records: Array<ToolRecord<Data>>, summary: string): ToolOutcome<Data> {
    return assemble(this.fan(), records, summary);
  }
}
