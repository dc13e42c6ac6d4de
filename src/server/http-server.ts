/**
 * The Node HTTP server's own limits and answers: connection timeouts that suit a load balancer in
 * front (its idle timeout is typically 60 s, so ours must be longer, or it reuses a connection we
 * are closing and answers 502), a bound on how long a request may take to arrive, and the spec's
 * JSON error object for requests Node's parser rejects before the app sees them.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Idle keep-alive connections are kept this long; more than the 60 s of common load balancers. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** The request headers must arrive within this; above the keep-alive timeout, as Node requires. */
export const HEADERS_TIMEOUT_MS = 66_000;
/** The whole request, body included, must arrive within this. */
export const REQUEST_TIMEOUT_MS = 120_000;

export function configureHttpServer<T extends Server>(server: T): T {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  return server;
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

function statusOf(code: string | undefined): { status: number; errorCode: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, errorCode: 'invalid_input', message: 'the request headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, errorCode: 'invalid_input', message: 'the request did not arrive in time' };
    default:
      return { status: 400, errorCode: 'invalid_input', message: 'the request is not valid HTTP' };
  }
}

/** Answers with a JSON error when the socket can still take one, then closes it. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, errorCode, message } = statusOf(error.code);
  const body = JSON.stringify({ error: { code: errorCode, message } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
