/** The baseline of the server benchmark: a bare Express app answering the same JSON, no key, no database. */
import { randomUUID } from 'node:crypto';
import express from 'express';

const app = express();
app.use(express.json());
app.post('/api/v1/search_papers', (request, response) => {
  response.json({
    summary: `1 paper for "${String(request.body?.query)}".`,
    records: [
      {
        id: 'openalex:W2741809807', type: 'paper', source: 'openalex', title: 'The state of OA', license: 'CC0-1.0',
        attribution: 'OpenAlex', retrievedAt: '2026-01-01T00:00:00.000Z', data: { found_in: ['openalex'], year: 2018 },
      },
    ],
    credits_used: 1,
    call_id: `call_${randomUUID().replace(/-/g, '')}`,
  });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
