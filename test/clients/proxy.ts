/**
 * A loopback proxy in front of a test server, for the client tests: it forwards every request, records
 * it, and can be told to play a fault once for a matching request — answer in the server's place (a 429
 * with Retry-After), or forward the request and then drop the server's answer (the connection closes
 * after the server has done the work, as when a network fails on the way back).
 */
import { createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** What the proxy did: forwarded the server's answer, answered itself, or dropped the answer. */
  outcome: 'forwarded' | 'answered' | 'dropped';
}

export type Fault = { answer: { status: number; headers?: Record<string, string>; body: unknown } } | { dropAnswer: true };

interface PlannedFault {
  matches: (method: string, path: string) => boolean;
  fault: Fault;
}

export interface Proxy {
  url: string;
  /** The server the proxy forwards to; set once it is listening. */
  target: string;
  requests: ProxiedRequest[];
  /** The next request for which `matches` is true meets `fault` instead of a plain forward; several calls queue several faults. */
  once(matches: (method: string, path: string) => boolean, fault: Fault): void;
  /** Requests seen for a path, in order. */
  requestsTo(method: string, path: string): ProxiedRequest[];
  reset(): void;
  close(): Promise<void>;
}

export const post = (path: string) => (method: string, requestPath: string) => method === 'POST' && requestPath === path;

export async function startProxy(): Promise<Proxy> {
  let planned: PlannedFault[] = [];
  const sockets = new Set<Socket>();
  const proxy: Proxy = {
    url: '',
    target: '',
    requests: [],
    once(matches, fault) {
      planned.push({ matches, fault });
    },
    requestsTo: (method, path) => proxy.requests.filter((request) => request.method === method && request.path === path),
    reset() {
      planned = [];
      proxy.requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  function pass(incoming: IncomingMessage, outgoing: ServerResponse, record: ProxiedRequest, drop: boolean): void {
    const target = new URL(proxy.target);
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        if (!drop) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        // The server has answered (and done the work); the client never hears of it.
        answer.resume();
        answer.on('end', () => {
          record.outcome = 'dropped';
          incoming.socket.destroy();
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  }

  const server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', 'http://proxy').pathname;
    const method = incoming.method ?? 'GET';
    const record: ProxiedRequest = { method, path, headers: incoming.headers, outcome: 'forwarded' };
    proxy.requests.push(record);
    const index = planned.findIndex((plan) => plan.matches(method, path));
    const fault = index >= 0 ? planned.splice(index, 1)[0]!.fault : undefined;
    if (fault && 'answer' in fault) {
      record.outcome = 'answered';
      incoming.resume();
      incoming.on('end', () => {
        outgoing
          .writeHead(fault.answer.status, { 'content-type': 'application/json; charset=utf-8', ...fault.answer.headers })
          .end(JSON.stringify(fault.answer.body));
      });
      return;
    }
    pass(incoming, outgoing, record, fault !== undefined);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
