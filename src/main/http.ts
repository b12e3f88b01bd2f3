import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError } from '../domain/shared/app-error';
import { isDatabaseOutage } from '../infrastructure/persistence/database-outage';
import { requestLog } from '../interfaces/http/shared/request-log';
import { RouteTable } from '../interfaces/http/shared/route-table';
import cookieParser from 'cookie-parser';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AuthenticateCaller } from '../application/identity/authenticate-caller';
import { accessGates } from '../interfaces/http/shared/gates';
import { admission } from '../interfaces/http/shared/admission';
import { assertUnambiguousPath } from '../interfaces/http/shared/gates/path-ambiguity';
import { storableBodyText, storableUrlText } from '../interfaces/http/shared/storable-text';
import { errorHandler, notFoundHandler } from '../interfaces/http/shared/error-handler';
import { buildOpenApiDocument, mountOpenApi } from '../interfaces/http/shared/openapi';
import type {
  AreaGate,
  IntakeDefinition,
  RouterDefinition,
  RouterDeps,
  StreamedIntakeDefinition,
} from '../interfaces/http/shared/router-deps';
import { provide } from './provide';
import { CONTEXTS } from './contexts';
import { PROBE_PATHS } from '../interfaces/http/identity/probes.router';
import { AGENT_AUTHENTICATED_PATHS } from '../interfaces/http/agent-access';
import { agentAccessGuard, agentAccessGuardNeeds } from '../interfaces/http/agent-access/guard';
import { MCP_PATH } from '../interfaces/http/mcp/mcp.router';
import { PLATFORM_SETTINGS_REPOSITORY, type PlatformSettingsRepository } from '../application/identity/ports';
import type { AppConfig } from './config';
import { CONFIG, LOGGER, ORM } from './tokens';
import { metricsHandlers } from './metrics';
import { customDomainRouting } from '../interfaces/http/custom-domains/host-routing';
import { publicStatusPageHost } from '../interfaces/http/custom-domains/status-page-host';
import { ActiveHosts } from '../application/custom-domains/active-hosts';
import { publicStatusPageViews } from '../interfaces/http/status-pages/public-views';
import { publicPageNeeds } from '../interfaces/http/status-pages/public-page-needs';
import { auditRequests } from './audit-requests';
import { jsonDepthLimit } from '../interfaces/http/shared/json-depth';
import { CONSOLE_PATH, mountConsole } from '../interfaces/http/console/console-host';

/** Every resource router, context by context (src/main/contexts.ts). */
export const ROUTERS: readonly RouterDefinition[] = CONTEXTS.flatMap((context) => context.routers ?? []);
/** Every context's intakes, mounted before the host's parsers. */
export const INTAKES: readonly IntakeDefinition[] = CONTEXTS.flatMap((context) => context.intakes ?? []);
/** Every context's routes that read their own body (event ingest): parsers and audit skip them. */
export const STREAMED_INTAKES: readonly StreamedIntakeDefinition[] = CONTEXTS.flatMap((context) => context.streamedIntakes ?? []);
/** Every context's gates over its areas of the API, run after admission and audit. */
const AREA_GATES: readonly AreaGate[] = CONTEXTS.flatMap((context) => context.areaGates ?? []);
const REDACTIONS = CONTEXTS.flatMap((context) => (context.redactUrl ? [context.redactUrl] : []));

/** Request URLs as logged: the secrets some paths carry (alert-source and calendar feed tokens) cut out, context by context. */
export const withoutPathSecrets = (url: string): string => REDACTIONS.reduce((redacted, redact) => redact(redacted), url);
/** Whether a path's handler reads the body itself, so the host's parsers leave it unread. */
const streamsItsBody = (path: string): boolean => STREAMED_INTAKES.some((intake) => intake.streamsItsBody(path));

/** The Express host: request ids and logs, the path check, parsers, the routers, and the envelope. */
export function createHttpApp(container: Container): Express {
  const config = container.get<AppConfig>(CONFIG);
  const logger = container.get<Logger>(LOGGER);
  const orm = container.get<MikroORM>(ORM);
  const paths: ZodOpenApiPathsObject = {};
  const platformSettings = container.get<PlatformSettingsRepository>(PLATFORM_SETTINGS_REPOSITORY);
  const deps: RouterDeps = {
    authenticate: container.get(AuthenticateCaller),
    gates: accessGates({ trustedOrigins: config.trustedOrigins, platformSwitches: () => platformSettings.get() }),
    paths,
    routes: new RouteTable(),
    secureCookies: config.publicBaseUrl.startsWith('https://'),
  };
  for (const router of ROUTERS) router.build(deps, provide(container, router.needs));
  for (const intake of INTAKES) intake.document(paths);
  const publicPages = provide(container, publicPageNeeds);

  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers (X-Forwarded-For/-Proto/-Host: req.ip, req.protocol, req.host) are believed only
  // from the proxies the operator names; otherwise any local process or pass-through proxy could pick
  // the client address that per-caller limits count.
  app.set('trust proxy', config.trustProxy.length > 0 ? [...config.trustProxy] : false);
  app.use(requestLog(logger, { quietPaths: PROBE_PATHS, redactUrl: withoutPathSecrets }));
  for (const handler of metricsHandlers(container)) app.use(handler);
  app.use(pathCheck);
  // Text PostgreSQL cannot keep (NUL, lone surrogates) is refused here for every route: the URL now,
  // parsed bodies right after the parsers, and streamed bodies by their reader (readJsonBody).
  app.use(storableUrlText);
  const activeHosts = container.get(ActiveHosts);
  const hostRouting = customDomainRouting({
    canonicalHostname: new URL(config.publicBaseUrl).hostname.toLowerCase(),
    trustProxy: config.trustProxy,
    find: (hostname) => activeHosts.find(hostname),
    bypassPaths: PROBE_PATHS,
    statusPageHost: publicStatusPageHost(publicPages),
  });
  app.use(hostRouting.resolve);
  // Status page views skip what follows up to the routes (body and cookie parsers, gates, route table).
  app.use(publicStatusPageViews(publicPages, (work) => RequestContext.create(orm.em, work), hostRouting.serveStatusPages));
  // Streamed intakes, built once for this host (event ingest shares its in-flight bound between its two ways in).
  const streamed = STREAMED_INTAKES.map((intake) => intake.build(provide(container, intake.needs), deps));
  // Their front paths (events sent with a bearer token) skip what follows (parsers, request context, admission, audit, route table).
  for (const { front } of streamed) if (front) app.use(front);
  // Callers that are not users (probes): their APIs have their own credentials, parser and limits (and no audit).
  for (const intake of INTAKES) {
    app.use(intake.path, (_req, _res, next) => RequestContext.create(orm.em, next), intake.build(provide(container, intake.needs)));
  }
  app.use(agentAccessGuard(provide(container, agentAccessGuardNeeds)));
  const json = express.json({ limit: '1mb' });
  const urlencoded = express.urlencoded({ extended: false, limit: '64kb' });
  // Streamed intakes (event ingest) read their own body, against their limits, after their rate is decided.
  app.use((req, res, next) => (streamsItsBody(req.path) ? next() : json(req, res, next)));
  app.use((req, res, next) => (streamsItsBody(req.path) ? next() : urlencoded(req, res, next)));
  app.use(storableBodyText);
  app.use(jsonDepthLimit);
  app.use(cookieParser());
  app.use((_req, _res, next) => RequestContext.create(orm.em, next));
  app.use(hostRouting.serveStatusPages);
  app.use('/api', admission(deps.authenticate, deps.gates));
  app.use(AGENT_AUTHENTICATED_PATHS, admission(deps.authenticate, deps.gates));
  // The MCP endpoint authenticates its caller without gates: each tool call is a request of the API, gated there.
  app.use(MCP_PATH, admission(deps.authenticate, []));
  // Streamed intakes are the data plane (event ingest: its incidents keep their own timeline), not a change of configuration.
  app.use(['/api', ...AGENT_AUTHENTICATED_PATHS, MCP_PATH], (req, res, next) =>
    streamsItsBody(req.originalUrl.split('?')[0]!) ? next() : auditRequests(req, res, next),
  );
  for (const gate of AREA_GATES) app.use([...gate.paths], gate.handler);
  // The streamed intakes' own step before their route: the rate, then the body read against its limits.
  for (const { path, handler } of streamed.flatMap(({ posts }) => posts)) app.post(path, handler);
  mountOpenApi(app, buildOpenApiDocument(paths));
  const withConsole = mountConsole(app);
  app.get('/', rootPointer(withConsole));
  app.use(deps.routes.handle);
  app.use(notFoundHandler);
  app.use(databaseOutages);
  app.use(errorHandler);
  return app;
}

/** Seconds a client is asked to wait before retrying a request refused while the database was unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * A request that failed because PostgreSQL was unreachable or going away (a restart, a failover)
 * committed nothing: 503 databaseUnavailable with Retry-After, so clients retry it, not a 500.
 */
const databaseOutages: ErrorRequestHandler = (error, req, _res, next) => {
  if (!isDatabaseOutage(error)) return next(error);
  req.log?.warn({ err: error }, 'database unreachable: answered 503 databaseUnavailable');
  next(new AppError('databaseUnavailable', { retryAfter: DATABASE_RETRY_AFTER_SECONDS }));
};

/**
 * The service's root points to where to go: a browser is sent to the console (302 /app; to the API
 * reference, /docs, when the console was not built), any other client gets the addresses as JSON.
 */
const rootPointer =
  (withConsole: boolean): RequestHandler =>
  (req, res) => {
    if (req.accepts(['json', 'html']) === 'html') {
      res.redirect(302, withConsole ? CONSOLE_PATH : '/docs');
      return;
    }
    res.json({
      name: 'Monitoring Service API',
      ...(withConsole ? { console: CONSOLE_PATH } : {}),
      docs: '/docs',
      openapi: '/openapi.json',
      health: { live: '/livez', ready: '/readyz' },
    });
  };

/** Ambiguous paths are refused before routing, on the path exactly as sent. */
const pathCheck: RequestHandler = (req, _res, next) => {
  try {
    assertUnambiguousPath(req.originalUrl);
    next();
  } catch (error) {
    next(error);
  }
};
