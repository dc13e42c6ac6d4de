/**
 * Recording of upstream answers for tests (UPSTREAM_RECORD_DIR): every answer an upstream gives is
 * written to a file of its own as it was read (decompressed; an answer read whole, as its text), under
 * a folder per source, and described by one line of `index.jsonl` in the folder: the request (method,
 * the address without the key, what a POST sent), the status, the response headers and when it was
 * read. With it, an operator or
 * a maintainer with access to the sources records the real answers a test needs by using the
 * service as usual (test/recordings/README.md).
 *
 * Answers read whole are recorded whatever their status (an error page is evidence too). An answer
 * read as it streams is written as it arrives and recorded once read to its end; one that broke off
 * or was refused is deleted. A failure to write is logged and never fails the call.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { appendFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Logger } from 'pino';

/** The request of an answer as index.jsonl names it. */
type Request = Pick<RecordedAnswer, 'method' | 'url' | 'form' | 'json'>;

/** One line of index.jsonl. */
export interface RecordedAnswer {
  /** The body's file, relative to the recording folder. */
  file: string;
  source: string;
  method: string;
  /** The address asked, without the source's key. */
  url: string;
  /** What a POST sent: its form fields or its JSON (keys go in the address or a header, never here). */
  form?: Record<string, string>;
  json?: unknown;
  status: number;
  /** The response's headers, without cookies. */
  headers: Record<string, string>;
  /** When the answer was read to its end (ISO 8601 UTC). */
  recordedAt: string;
  bytes: number;
}

/** A file name's ending for a content type: what a reader opens it with. */
function extensionOf(contentType: string): string {
  const type = contentType.toLowerCase();
  if (type.includes('json')) return '.json';
  if (type.includes('xml')) return '.xml';
  if (type.includes('csv')) return '.csv';
  if (type.includes('html')) return '.html';
  if (type.startsWith('text/')) return '.txt';
  return '.body';
}

const headersOf = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => value !== undefined && name !== 'set-cookie')
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );

export class AnswerRecorder {
  private count = 0;
  /** The sources whose folder is made. */
  private readonly made = new Set<string>();

  constructor(
    private readonly folder: string,
    private readonly logger?: Logger,
  ) {}

  /** A recording of one attempt's answer, begun as the request goes out. */
  begin(source: string, request: Request): AnswerRecording {
    if (!this.made.has(source)) {
      try {
        mkdirSync(join(this.folder, source), { recursive: true });
        this.made.add(source);
      } catch (error) {
        this.failed(error, request.url); // its writes fail too, and are logged
      }
    }
    this.count += 1;
    // The process and a count in the name: several processes may record into one folder.
    const name = `${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}-${process.pid}-${this.count}`;
    return new AnswerRecording(this, source, request, join(source, name));
  }

  /** The file's place in the recording folder. */
  pathOf(file: string): string {
    return join(this.folder, file);
  }

  async index(answer: RecordedAnswer): Promise<void> {
    await appendFile(join(this.folder, 'index.jsonl'), `${JSON.stringify(answer)}\n`);
  }

  failed(error: unknown, url: string): void {
    this.logger?.warn({ err: (error as Error).message, url }, 'an upstream answer was not recorded');
  }
}

export class AnswerRecording {
  private stream?: WriteStream;
  private file?: string;
  private streamedBytes = 0;

  constructor(
    private readonly recorder: AnswerRecorder,
    private readonly source: string,
    private readonly request: Request,
    private readonly name: string,
  ) {}

  /** A piece of an answer read as it streams, written as it arrives. */
  append(chunk: Buffer, contentType: string): void {
    if (!this.stream) {
      this.file = `${this.name}${extensionOf(contentType)}`;
      this.stream = createWriteStream(this.recorder.pathOf(this.file), { flags: 'w' });
      this.stream.on('error', (error) => this.recorder.failed(error, this.request.url));
    }
    this.streamedBytes += chunk.length;
    this.stream.write(chunk);
  }

  /** The answer is whole: `body` is its text when it was read whole, '' when it streamed (its pieces are written). */
  async finish(status: number, headers: IncomingHttpHeaders, body: string): Promise<void> {
    try {
      const contentType = String(headers['content-type'] ?? '');
      let bytes = this.streamedBytes;
      if (this.stream) {
        this.stream.end();
        await finished(this.stream);
      } else {
        this.file = `${this.name}${extensionOf(contentType)}`;
        await writeFile(this.recorder.pathOf(this.file), body);
        bytes = Buffer.byteLength(body);
      }
      const recordedAt = new Date().toISOString();
      await this.recorder.index({
        file: this.file!,
        source: this.source,
        ...this.request,
        status,
        headers: headersOf(headers),
        recordedAt,
        bytes,
      });
    } catch (error) {
      this.recorder.failed(error, this.request.url);
    }
  }

  /** The answer broke off or was refused: what was written of it is deleted. */
  async abandon(): Promise<void> {
    if (!this.stream) return;
    this.stream.destroy();
    await rm(this.recorder.pathOf(this.file!), { force: true }).catch((error: unknown) => this.recorder.failed(error, this.request.url));
  }
}
