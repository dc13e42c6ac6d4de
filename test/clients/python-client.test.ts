import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { expect } from 'chai';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { post } from './proxy.ts';
import { describeWithPython, runPython } from './python.ts';
import { FIGURE_DESCRIPTION, PNG_SIGNATURE, oeisAnswer, rateLimitedAnswer, useTestBed } from './test-bed.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeWithPython('the Python client (python3)', () => {
  describeOnEachEngine('the Python client against the server', (engine) => {
    const bed = useTestBed(engine);
    /** The environment of a snippet: the key and the server as the client reads them. */
    const env = (key: string) => ({ RESEARCH_TOOLS_API_KEY: key, RESEARCH_TOOLS_BASE_URL: bed().proxy.url });

    it('a free call: the key and server come from RESEARCH_TOOLS_API_KEY and RESEARCH_TOOLS_BASE_URL, nothing is charged', async () => {
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client()
        before = rt.credits_remaining
        result = rt.list_capabilities(discipline="astro")
        report(base_url=rt.base_url, before=before, summary=result["summary"], records=len(result["records"]),
               pack=result["records"][0]["data"]["pack"], credits_used=result["credits_used"], after=rt.credits_remaining)
        `,
        { ...env(caller.key), RESEARCH_TOOLS_BASE_URL: `${bed().proxy.url}/` },
      );
      expect(out).to.deep.equal({
        base_url: bed().proxy.url,
        before: null,
        summary: '3 capabilities with 3 tools in the astro pack.',
        records: 3,
        pack: 'astro',
        credits_used: 0,
        after: 10,
      });
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 10, ledger: 10 });
      const [request] = bed().proxy.requestsTo('POST', '/api/v1/list_capabilities');
      expect(request!.headers.authorization).to.equal(`Bearer ${caller.key}`);
      expect(request!.headers['idempotency-key']).to.match(UUID);
      expect(request!.headers['user-agent']).to.match(/^research-tools-python\/1\.0\.0 \(Python 3\.\d+\)$/);
    });

    it('the key and server can be given as arguments; without any key the client refuses to start', async () => {
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client("${caller.key}", base_url="${bed().proxy.url}")
        result = rt.call("list_capabilities", discipline="astro")
        try:
            Client()
            refused = None
        except ValueError as error:
            refused = str(error)
        report(records=len(result["records"]), balance=rt.credits_remaining, refused=refused)
        `,
      );
      expect(out).to.deep.equal({ records: 3, balance: 10, refused: 'no API key: pass api_key or set RESEARCH_TOOLS_API_KEY' });
    });

    it('a charged call answers the records, and credits_remaining the balance after it', async () => {
      bed().upstream.on('/search', oeisAnswer());
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client()
        result = rt.lookup_integer_sequence(query="A000045")
        record = result["records"][0]
        report(summary=result["summary"], credits_used=result["credits_used"], id=record["id"], a_number=record["data"]["a_number"],
               terms=record["data"]["terms"][:6], call_id=result["call_id"], balance=rt.credits_remaining)
        `,
        env(caller.key),
      );
      expect({ ...out, call_id: undefined }).to.deep.equal({
        summary: '1 integer sequence for "A000045".',
        credits_used: 1,
        id: 'oeis:A000045',
        a_number: 'A000045',
        terms: ['0', '1', '1', '2', '3', '5'],
        call_id: undefined,
        balance: 9,
      });
      expect(out.call_id).to.match(/^call_[0-9a-f]{32}$/);
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
    });

    it('402 insufficient_credits is raised as InsufficientCreditsError with its code, message and status; no upstream is asked', async () => {
      bed().upstream.on('/search', oeisAnswer());
      const caller = await bed().caller(0);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep)
        error = failure(lambda: rt.lookup_integer_sequence(query="3, 5, 8, 13, 21, 34"))
        try:
            rt.lookup_integer_sequence(query="3, 5, 8, 13, 21, 34")
        except InsufficientCreditsError as caught:
            text = str(caught)
        report(error=error, text=text, balance=rt.credits_remaining, sleeps=sleeps)
        `,
        env(caller.key),
      );
      expect(out).to.deep.equal({
        error: {
          class: 'InsufficientCreditsError',
          code: 'insufficient_credits',
          status: 402,
          message: 'lookup_integer_sequence costs 1 credit; the account holds 0',
          retry_after: null,
        },
        text: 'insufficient_credits (HTTP 402): lookup_integer_sequence costs 1 credit; the account holds 0',
        balance: 0,
        sleeps: [],
      });
      expect(bed().upstream.hits).to.have.length(0);
    });

    it('400 invalid_input is raised as InvalidInputError naming the argument; nothing is retried', async () => {
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep)
        report(error=failure(lambda: rt.lookup_integer_sequence(query="A000045", limit=0)), sleeps=sleeps)
        `,
        env(caller.key),
      );
      expect(out).to.deep.equal({
        error: { class: 'InvalidInputError', code: 'invalid_input', status: 400, message: 'limit: must be >= 1', retry_after: null },
        sleeps: [],
      });
      expect(bed().proxy.requests).to.have.length(1);
    });

    it('a 429 is waited out for its Retry-After and retried with the same Idempotency-Key, then answered and charged once', async () => {
      bed().upstream.on('/search', oeisAnswer());
      bed().proxy.once(post('/api/v1/lookup_integer_sequence'), rateLimitedAnswer(7));
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep)
        result = rt.lookup_integer_sequence(query="A000045")
        report(id=result["records"][0]["id"], sleeps=sleeps, balance=rt.credits_remaining)
        `,
        env(caller.key),
      );
      expect(out).to.deep.equal({ id: 'oeis:A000045', sleeps: [7], balance: 9 });
      const requests = bed().proxy.requestsTo('POST', '/api/v1/lookup_integer_sequence');
      expect(requests.map((request) => request.outcome)).to.deep.equal(['answered', 'forwarded']);
      expect(requests[0]!.headers['idempotency-key']).to.match(UUID).and.equal(requests[1]!.headers['idempotency-key']);
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
    });

    it('retries stop at max_retries: the last 429 is raised as RateLimitedError with its Retry-After', async () => {
      for (let i = 0; i < 3; i += 1) bed().proxy.once(post('/api/v1/lookup_integer_sequence'), rateLimitedAnswer(2));
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep, max_retries=2)
        report(error=failure(lambda: rt.lookup_integer_sequence(query="A000045")), sleeps=sleeps)
        `,
        env(caller.key),
      );
      expect(out).to.deep.equal({
        error: {
          class: 'RateLimitedError',
          code: 'rate_limited',
          status: 429,
          message: 'rate limit of 60 requests per minute reached; retry after 2 s',
          retry_after: 2,
        },
        sleeps: [2, 2],
      });
      expect(bed().proxy.requests.map((request) => request.outcome)).to.deep.equal(['answered', 'answered', 'answered']);
    });

    it('a charged call whose answer is lost on the way back is retried with the same Idempotency-Key and charged once', async () => {
      bed().upstream.on('/search', oeisAnswer());
      bed().proxy.once(post('/api/v1/lookup_integer_sequence'), { dropAnswer: true });
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep)
        result = rt.lookup_integer_sequence(query="5, 8, 13, 21, 34, 55")
        report(id=result["records"][0]["id"], credits_used=result["credits_used"], sleeps=sleeps, balance=rt.credits_remaining)
        `,
        env(caller.key),
      );
      const requests = bed().proxy.requestsTo('POST', '/api/v1/lookup_integer_sequence');
      expect(requests.map((request) => request.outcome)).to.deep.equal(['dropped', 'forwarded']);
      expect(requests[0]!.headers['idempotency-key']).to.match(UUID).and.equal(requests[1]!.headers['idempotency-key']);
      // The server ran the call once; the retry got its stored answer.
      expect([out.id, out.credits_used, out.balance, bed().upstream.hitsOn('/search').length]).to.deep.equal(['oeis:A000045', 1, 9, 1]);
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
      // One wait after the network failure: the first backoff, 0.5 s with jitter.
      expect(out.sleeps).to.have.length(1);
      expect(out.sleeps[0]).to.be.within(0.25, 0.5);
    });

    it('create_figure with wait polls get_figure until the figure is finished and returns its PNG bytes; the figure is charged once', async () => {
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        import base64, time
        def poll_sleep(seconds):
            sleeps.append(seconds)
            time.sleep(seconds)
        rt = Client(sleep=poll_sleep)
        figure = rt.create_figure(${JSON.stringify(FIGURE_DESCRIPTION)}, kind="workflow", wait=True, poll_interval=0.1)
        report(figure_id=figure.figure_id, png=base64.b64encode(figure.png).decode(), png_url=figure.png_url,
               status=figure.result["extra"]["status"], sleeps=sleeps, balance=rt.credits_remaining)
        `,
        env(caller.key),
      );
      const png = Buffer.from(out.png, 'base64');
      expect(out.figure_id).to.match(/^fig_/);
      expect([...png.subarray(0, 8)]).to.deep.equal(PNG_SIGNATURE);
      expect(out.png_url.startsWith(`${bed().proxy.url}/files/`)).to.equal(true);
      expect(png.equals(Buffer.from(await (await fetch(out.png_url)).arrayBuffer()))).to.equal(true);
      // create_figure answered pending (FIGURE_SYNC_WAIT_MS=0); every poll came after one wait of the interval asked for.
      const pollCalls = bed().proxy.requestsTo('POST', '/api/v1/get_figure');
      expect(pollCalls.length).to.be.at.least(1);
      expect([out.status, out.sleeps, out.balance]).to.deep.equal(['finished', pollCalls.map(() => 0.1), 5]);
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 5, ledger: 5 });
    });

    it('create_figure with wait gives up with figure_timeout, without polling, when the next wait would pass wait_timeout', async () => {
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep)
        error = failure(lambda: rt.create_figure("A activates B", wait=True, poll_interval=1, wait_timeout=0.5))
        report(error=error, sleeps=sleeps)
        `,
        env(caller.key),
      );
      expect([out.error.class, out.error.code, out.error.status, out.sleeps]).to.deep.equal(['ResearchToolsError', 'figure_timeout', null, []]);
      expect(out.error.message).to.match(/^figure fig_\S+ was still rendering after 0 s of polling; poll get_figure later$/);
      expect(bed().proxy.requestsTo('POST', '/api/v1/get_figure')).to.have.length(0);
    });

    describeRecordings('crossref', () => {
      it('search_papers with citation_format="bibtex" answers the papers as BibTeX, charged as the JSON call', async () => {
        bed().upstream.on('/works', json(recording('crossref', 'works-query-ecology-rows2.json')));
        const caller = await bed().caller(10);
        const out = await runPython(
          `
          rt = Client()
          text = rt.search_papers("ecology", sources=["crossref"], limit=2, citation_format="bibtex")
          report(text=text, balance=rt.credits_remaining)
          `,
          env(caller.key),
        );
        const parsed = parseBibtex(out.text);
        expect(parsed.errors).to.deep.equal([]);
        expect(parsed.entries.map((entry) => entry.fields.doi)).to.deep.equal(['10.1093/obo/9780199830060-0238', '10.1093/obo/9780199830060-0023']);
        expect([bed().proxy.requestsTo('POST', '/api/v1/search_papers')[0]!.headers.accept, out.balance]).to.deep.equal(['application/x-bibtex', 9]);
      });
    });
  });

  describeOnEachEngine('the Python client against a server whose rate limit is reached', (engine) => {
    const bed = useTestBed(engine, { rateLimitPerMinute: 1 });

    it("raises the server's 429 as RateLimitedError at once when its Retry-After is longer than max_retry_wait", async () => {
      bed().upstream.on('/search', oeisAnswer());
      const caller = await bed().caller(10);
      const out = await runPython(
        `
        rt = Client(sleep=record_sleep, max_retry_wait=0.5)
        rt.lookup_integer_sequence(query="A000045")
        report(error=failure(lambda: rt.lookup_integer_sequence(query="A000045")), sleeps=sleeps)
        `,
        { RESEARCH_TOOLS_API_KEY: caller.key, RESEARCH_TOOLS_BASE_URL: bed().proxy.url },
      );
      expect([out.error.class, out.error.code, out.error.status, out.sleeps]).to.deep.equal(['RateLimitedError', 'rate_limited', 429, []]);
      expect(out.error.retry_after).to.be.within(1, 60);
      expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
    });
  });
});
