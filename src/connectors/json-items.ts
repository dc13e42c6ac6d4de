/**
 * Large JSON catalogue answers (Census's `data.json` of every dataset, a dataset's
 * `variables.json`) read as they stream: each value at one path is handed over once it is whole and
 * then let go, so the answer is never held as text nor as one parsed tree, and other calls run
 * between its pieces.
 */
import { JSONParser } from '@streamparser/json';
import type { SourceId } from '../../generated/types.ts';
import type { UpstreamClient, UpstreamRequest } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { nextTurn } from '../clock.ts';

/** The reader's error: the text is not JSON. */
export class NotJson extends Error {}

/** What `take` threw, told apart from the parser's own errors. */
class TakeFailed extends Error {
  constructor(readonly reason: unknown) {
    super('the taker of a JSON value failed');
  }
}

/** Reads one JSON document: `write` its text piece by piece, then `end`; `take` gets each value at `path` (`$.dataset.*`) with its key. */
export class JsonItems {
  private readonly parser: JSONParser;
  private empty = true;

  constructor(path: string, take: (value: unknown, key: string | number | undefined) => void) {
    // keepStack false: a value handed over is not kept in its parent.
    this.parser = new JSONParser({ paths: [path], keepStack: false });
    this.parser.onValue = ({ value, key }) => {
      try {
        take(value, key);
      } catch (error) {
        throw new TakeFailed(error);
      }
    };
  }

  write(piece: string): void {
    if (this.empty && /\S/.test(piece)) this.empty = false;
    this.guarded(() => this.parser.write(piece));
  }

  /** Ends the document; one that is not whole is not JSON. (The parser ends by itself once its one top-level value is whole.) */
  end(): void {
    if (this.empty) throw new NotJson('the body is empty');
    if (!this.parser.isEnded) this.guarded(() => this.parser.end());
  }

  /** Runs a step of the parser: what `take` threw is thrown as it is, anything else means the text is not JSON. */
  private guarded(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof TakeFailed) throw error.reason;
      throw new NotJson(error instanceof Error ? error.message : String(error));
    }
  }
}

/**
 * The values at `path` of a large JSON answer, handed to `take` as the answer streams
 * (UpstreamClient.readText), with a turn of the event loop between pieces. A body that is not JSON
 * is a bad body.
 */
export async function readJsonItems<S extends SourceId>(
  upstream: UpstreamClient,
  id: S,
  request: Omit<UpstreamRequest<S>, 'headers'> & { maxBodyBytes: number },
  path: string,
  take: (value: unknown, key: string | number | undefined) => void,
): Promise<{ retrievedAt: string }> {
  const items = new JsonItems(path, take);
  try {
    const read = await upstream.readText(id, { ...request, headers: { accept: 'application/json' } }, async (piece) => {
      items.write(piece);
      await nextTurn();
    });
    items.end();
    return { retrievedAt: read.retrievedAt };
  } catch (error) {
    if (error instanceof NotJson) {
      const said = error.message.split(/\.\s/)[0]!.slice(0, 160); // the parser's first sentence says where it stopped
      throw new UpstreamError(id, 'bad_body', `${id} answered something that is not whole JSON (${said})`);
    }
    throw error;
  }
}
