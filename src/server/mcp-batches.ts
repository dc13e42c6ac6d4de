/**
 * JSON-RPC batches on POST /mcp (clients of the 2025-03-26 revision may send an array of
 * messages): bounded in count and in answer bytes. The messages are served one after another, each
 * exactly as if it had come alone — so each tools/call is counted against the key's rate and
 * charged like a single request, and discovery stays free — and their answers are sent together
 * as one JSON array. Once the answers reach MAX_BATCH_ANSWER_BYTES, the requests left are not run
 * (not counted, not charged) and each is answered with an error saying to send it on its own.
 */
import type { Response } from 'express';
import { JSONRPC_VERSION } from '@modelcontextprotocol/server';

/** Messages one batch may hold. */
export const MAX_BATCH_MESSAGES = 10;
/** Answer bytes after which a batch's remaining requests are not run (the last one run may pass it by its own answer). */
export const MAX_BATCH_ANSWER_BYTES = 128 * 1024;

/** JSON-RPC's "invalid request" and the implementation-defined server error code. */
const INVALID_REQUEST = -32600;
const NOT_RUN = -32000;

/** Serves one message alone, as the MCP handler serves a POST of it. */
export type ServeOne = (message: unknown, signal: AbortSignal) => Promise<globalThis.Response>;

function isRequest(message: unknown): message is { id: string | number; method: string } {
  return typeof message === 'object' && message !== null && 'method' in message && 'id' in message;
}

function isResponse(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'id' in message && ('result' in message || 'error' in message);
}

/** The JSON-RPC responses in one answer of the handler: a JSON body, or the message events of an event stream (progress notices are left out). */
async function responsesOf(answer: globalThis.Response): Promise<unknown[]> {
  if (answer.body === null || answer.status === 202) return [];
  const text = await answer.text();
  if ((answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.length > 5)
      .map((line) => JSON.parse(line.slice(5)) as unknown)
      .filter(isResponse);
  }
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

export function batchError(response: Response, status: number, message: string): void {
  response.status(status).json({ jsonrpc: JSONRPC_VERSION, id: null, error: { code: INVALID_REQUEST, message } });
}

export async function serveBatch(messages: unknown[], response: Response, serveOne: ServeOne): Promise<void> {
  if (messages.length > MAX_BATCH_MESSAGES) {
    batchError(response, 400, `a batch may hold at most ${MAX_BATCH_MESSAGES} messages; this one holds ${messages.length}: send the rest in other requests`);
    return;
  }
  const gone = new AbortController();
  response.on('close', () => gone.abort());
  const answers: unknown[] = [];
  let bytes = 0;
  for (const message of messages) {
    if (gone.signal.aborted) return;
    if (bytes >= MAX_BATCH_ANSWER_BYTES) {
      if (isRequest(message)) {
        const text = `not run: the answers of this batch passed ${MAX_BATCH_ANSWER_BYTES} bytes; send this request on its own`;
        answers.push({ jsonrpc: JSONRPC_VERSION, id: message.id, error: { code: NOT_RUN, message: text } });
      }
      continue;
    }
    for (const answer of await responsesOf(await serveOne(message, gone.signal))) {
      answers.push(answer);
      bytes += Buffer.byteLength(JSON.stringify(answer));
    }
  }
  if (answers.length === 0) response.status(202).end();
  else response.status(200).json(answers);
}
