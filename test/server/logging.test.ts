import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../src/logging.ts';

/** A logger writing into an array, one parsed line per entry. */
function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

/** The fields of a line, less those pino adds itself. */
function fieldsOf(line: Record<string, unknown>): Record<string, unknown> {
  const { level: _level, time: _time, pid: _pid, hostname: _hostname, ...fields } = line;
  return fields;
}

describe('Log lines', function () {
  it('are written as given when no field looks like a secret', async function () {
    const { logger, lines } = capturedLogger();
    logger.info({ call_id: 'call_1', tool: 'search_papers', status: 'ok', credits: 1, upstream: { source: 'openalex', status: 200 } }, 'tool call');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(fieldsOf)).to.deep.equal([
      {
        service: 'research-tools-api',
        call_id: 'call_1',
        tool: 'search_papers',
        status: 'ok',
        credits: 1,
        upstream: { source: 'openalex', status: 200 },
        msg: 'tool call',
      },
    ]);
  });

  it('never carry a key, an authorization or headers, at the top or one level down, and leave the object logged unchanged', async function () {
    const { logger, lines } = capturedLogger();
    const logged = {
      key: 'rt_live_secret',
      apiKey: 'rt_live_secret',
      authorization: 'Bearer rt_live_secret',
      headers: { authorization: 'Bearer rt_live_secret', accept: 'application/json' },
      request: { authorization: 'Bearer rt_live_secret', 'x-api-key': 'rt_live_secret', path: '/api/v1/search_papers' },
      tool: 'search_papers',
    };
    logger.warn(logged, 'by mistake');
    logger.child({ key: 'rt_live_secret', call_id: 'call_2' }).info('from a child');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map(fieldsOf)).to.deep.equal([
      {
        service: 'research-tools-api',
        key: '[redacted]',
        apiKey: '[redacted]',
        authorization: '[redacted]',
        headers: '[redacted]',
        request: { authorization: '[redacted]', 'x-api-key': '[redacted]', path: '/api/v1/search_papers' },
        tool: 'search_papers',
        msg: 'by mistake',
      },
      { service: 'research-tools-api', key: '[redacted]', call_id: 'call_2', msg: 'from a child' },
    ]);
    expect(logged.request.authorization).to.equal('Bearer rt_live_secret');
    expect(JSON.stringify(lines)).not.to.include('rt_live_secret');
  });
});
