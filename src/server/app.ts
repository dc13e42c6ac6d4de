/** The Express app: health checks, the four generic endpoints of spec part 4.1, JSON errors only. */
import express, { type Express, type RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { buildRouteTable, type ToolHandlers } from '../../generated/routes.ts';
import { LATE, within, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { metrics } from '../metrics.ts';
import { FileStore } from '../figures/files.ts';
import type { FigureRenderer } from '../figures/renderer.ts';
import { attachFigureRunner, fileHandler } from '../figures/server.ts';
import type { ToolContext } from '../tools/context.ts';
import { createHandlers } from '../tools/handlers.ts';
import { CallBatches, HOLDS_IN_ALL, HOLDS_PER_ACCOUNT, LedgerGate, type LeaseHolder } from '../ledger/index.ts';
import { createUpstreamClient, type UpstreamClient } from '../upstream/client.ts';
import { openSharedUpstreamState } from './upstream-state.ts';
import { budgetRows } from '../upstream/status.ts';
import { jsonAccepted } from './accept.ts';
import { accountApiRouter } from './account/api.ts';
import { accountPageRouter } from './account/page.ts';
import { accountHandler } from './account/summary.ts';
import { corsFor } from './cors.ts';
import { docsRouter } from './docs.ts';
import { describeToolHandler, listToolsHandler, openApiHandler } from './catalogue.ts';
import { securityHeaders } from './security-headers.ts';
import { errorMiddleware } from './error-middleware.ts';
import { listenOnConfiguredServer } from './http-server.ts';
import { InFlight } from './in-flight.ts';
import { KeyVerifier } from './key-cache.ts';
import { createRateLimits } from './rate-limits.ts';
import { createRequestValidator } from './request-validation.ts';
import { createResponseValidator } from './response-validation.ts';
import { mcpRouter } from './mcp.ts';
import { metricsHandler } from './metrics-endpoint.ts';
import { refuseOtherMethods } from './methods.ts';
import { createToolCallRunner, type ToolCallServices } from './run-tool-call.ts';
import { findTool, isToolName, toolCallHandler } from './tool-call.ts';

/** /readyz answers 503 when the database has not answered `select 1` within this long. */
export const READY_WAIT_MS = 1000;

export interface AppDependencies {
  db: Knex;
  config: Config;
  logger: Logger;
  /** The tool implementations; the real ones unless a test or benchmark supplies its own. */
  handlers?: ToolHandlers<ToolContext>;
  /** The time the upstream layer's deadlines, retry delays and pacing follow; the wall clock unless a test supplies one. */
  clock?: Clock;
  /** The upstream HTTP layer; one per app, made from the config (on `clock`) unless supplied. */
  upstream?: UpstreamClient;
  /** What draws figures; the built-in renderer in worker threads unless supplied. */
  figureRenderer?: FigureRenderer;
  /** Check every JSON answer against generated/openapi.json (a mismatch becomes a 500); on under NODE_ENV=test. */
  validateResponses?: boolean;
  /** This process's lease (ledger/leases.ts), named by its calls' holds; without one, they are released only on HOLD_TIMEOUT_MS. */
  lease?: LeaseHolder;
}

export async function createApp({
  db,
  config,
  logger,
  handlers = createHandlers(),
  clock,
  upstream,
  figureRenderer,
  validateResponses = process.env.NODE_ENV === 'test',
  lease,
}: AppDependencies): Promise<Express> {
  const app = express();
  // First, so that what is attached to app.listen below (the figure runner) wraps this server.
  listenOnConfiguredServer(app);
  app.disable('x-powered-by');
  // Paths are case-exact (RFC 3986), here and in every router below: /docs/PAGE.JS is a 404, as any unknown address.
  app.set('case sensitive routing', true);
  if (validateResponses) app.use(createResponseValidator(openapi));
  // Security headers on every answer (the docs page and figure files set their own policies on top).
  app.use(securityHeaders());
  if (config.corsOrigins.length > 0) app.use(corsFor(config.corsOrigins));
  // X-Forwarded-For is believed only from the operator's proxies; otherwise request.ip is the connection's address.
  app.set('trust proxy', config.trustedProxies.length > 0 ? config.trustedProxies : false);
  const limits = await createRateLimits(db, config.rateLimitPerMinute, {
    redisUrl: config.redisUrl,
    accountPerMinute: config.rateLimitAccountPerMinute,
    keyCreationsPerHour: config.keyCreationsPerHour,
  });
  const keys = new KeyVerifier(db);
  // Budgets are counted, and breaker changes kept, where every process sees them (Redis, or the database).
  upstream ??= createUpstreamClient(config, logger, clock, await openSharedUpstreamState(db, config.redisUrl, logger));
  const upstreamClient = upstream;
  metrics.setBudgetReader(() => budgetRows(upstreamClient));

  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  refuseOtherMethods(app, '/healthz', ['GET']);
  app.get('/readyz', async (_request, response) => {
    try {
      // Ready means the database answered within READY_WAIT_MS; while it is out of reach the pool refuses at once (reachability.ts).
      if ((await within(db.raw('select 1'), READY_WAIT_MS)) === LATE) throw new Error('the database did not answer in time');
      response.json({ status: 'ready', database: 'reachable' });
    } catch {
      response.status(503).json({ error: { code: 'internal', message: 'database not reachable' } });
    }
  });
  refuseOtherMethods(app, '/readyz', ['GET']);

  // Figure images at unguessable URLs, kept in the database (FILES_DIR caches them); the render runner starts and stops with the server.
  const files = new FileStore(db, config.filesDir);
  app.get('/files/:name', fileHandler(files));
  refuseOtherMethods(app, '/files/:name', ['GET']);
  const figures = attachFigureRunner(app, { db, config, logger, renderer: figureRenderer, files });

  // The pool's other connections stay free for other accounts, free calls and /readyz.
  const gate = new LedgerGate(HOLDS_PER_ACCOUNT, HOLDS_IN_ALL);
  const batches = new CallBatches(db, { gate, waitMs: config.chargeWaitMs, lease });
  const inFlight = new InFlight();
  app.locals.inFlight = inFlight;
  const services: ToolCallServices = { db, config, logger, limits, upstream, figures, routes: buildRouteTable(handlers), gate, batches, inFlight, lease };
  // Tool calls first, so that they do not pass through every router below (the hot path).
  const runToolCall = createToolCallRunner(services);
  const callTool = toolCallHandler({ db, limits, keys, runToolCall, validateRequest: createRequestValidator(openapi) });
  const toolCalls: RequestHandler = (request, response, next) => (isToolName(String(request.params.tool)) ? callTool(request, response, next) : next());
  app.post('/api/v1/:tool', toolCalls);
  app.get('/metrics', metricsHandler(config.metricsToken, limits));
  refuseOtherMethods(app, '/metrics', ['GET']);
  app.use(docsRouter());
  app.use(accountPageRouter({ db, keys, limits, sessionMinutes: config.accountSessionMinutes, publicBaseUrl: config.publicBaseUrl }));
  app.get('/api/v1', jsonAccepted, listToolsHandler());
  refuseOtherMethods(app, '/api/v1', ['GET']);
  app.get('/api/v1/openapi.json', jsonAccepted, openApiHandler(openapi as Record<string, unknown>, config.publicBaseUrl));
  refuseOtherMethods(app, '/api/v1/openapi.json', ['GET']);
  // Before /api/v1/:tool, which would take "account" for a tool name (codegen keeps tools from taking it).
  app.get('/api/v1/account', jsonAccepted, accountHandler(db, keys, limits));
  app.use(accountApiRouter(db, keys, limits));
  refuseOtherMethods(app, '/api/v1/account', ['GET']);
  app.get('/api/v1/:tool', describeToolHandler());
  // A known tool's address takes GET (describe) and POST (call); any method on an unknown tool's is 404 unknown_tool.
  refuseOtherMethods(app, '/api/v1/:tool', ['GET', 'POST'], (request) => isToolName(String(request.params.tool)));
  app.all('/api/v1/:tool', (request) => {
    findTool(String(request.params.tool)); // throws unknown_tool: the known ones were answered above
  });
  // Agents poll get_figure rather than hold a call open, so figure tools answer pending at once; an agent
  // that sent a progress token is told the render states instead, and waits for the image as REST does.
  const agentServices = { ...services, config: { ...config, figureSyncWaitMs: 0 } };
  app.use(
    '/mcp',
    mcpRouter({
      db,
      logger,
      limits,
      keys,
      publicBaseUrl: config.publicBaseUrl,
      files,
      runToolCall: createToolCallRunner(agentServices),
      runToolCallWithProgress: runToolCall,
      redisUrl: config.redisUrl,
    }),
  );
  app.use((request) => {
    throw new ApiError('not_found', `nothing at ${request.method} ${request.path}; the API lives under /api/v1`);
  });
  app.use(errorMiddleware(logger));

  return app;
}
