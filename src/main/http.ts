import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError } from '../domain/shared/app-error';
import { isCutByStop, isDatabaseOutage } from '../infrastructure/persistence/database-outage';
import { currentScope } from '../infrastructure/persistence/work-scope';
import { compressedAnswers } from '../interfaces/http/shared/compressed-answers';
import { requestLog } from '../interfaces/http/shared/request-log';
import { RouteTable } from '../interfaces/http/shared/route-table';
import cookieParser from 'cookie-parser';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { admission } from '../interfaces/http/shared/admission';
import { assertUnambiguousPath } from '../interfaces/http/shared/gates/path-ambiguity';
import { under } from '../interfaces/http/shared/gates/gate-request';
import { storableBodyText, storableUrlText } from '../interfaces/http/shared/storable-text';
import { errorHandler, notFoundHandler } from '../interfaces/http/shared/error-handler';
import { buildOpenApiDocument, mountOpenApi } from '../interfaces/http/shared/openapi';
import type {
  HostAdmission,
  IntakeDefinition,
  RouterDefinition,
  RouterDeps,
  StreamedIntakeDefinition,
} from '../interfaces/http/shared/router-deps';
import { provide } from './provide';
import { CONTEXTS } from './contexts';
import type { AppConfig } from './config';
import { CONFIG, LOGGER } from './tokens';
import { auditRequests } from './audit-requests';
import { jsonDepthLimit } from '../interfaces/http/shared/json-depth';
import { CONSOLE_PATH, mountConsole } from '../interfaces/http/console/console-host';
import { asCall, hostParts } from './host-parts';
import { getterOf } from './modules/bindings';
import type { ContextModule, FrontHandlers, FrontStage } from './modules/context-module';

const SERVICE = hostParts(CONTEXTS);
/** Every resource router, context by context (src/main/contexts.ts). */
export const ROUTERS: readonly RouterDefinition[] = SERVICE.routers;
/** Every context's intakes, mounted before the host's parsers. */
export const INTAKES: readonly IntakeDefinition[] = SERVICE.intakes;
/** Every context's routes that read their own body (event ingest): parsers and audit skip them. */
export const STREAMED_INTAKES: readonly StreamedIntakeDefinition[] = SERVICE.streamedIntakes;

/** Request URLs as logged: the secrets some paths carry (alert-source and calendar feed tokens) cut out, context by context. */
export const withoutPathSecrets = (url: string): string => SERVICE.redactUrl(url);

/**
 * The Express host: request ids and logs, the path check, the contexts' front handlers, streamed
 * intakes and intakes, parsers, admission, audit, area gates, the routers, and the envelope. It
 * names no context: each part comes from the list of contexts (src/main/contexts.ts by default).
 */
export async function createHttpApp(container: Container, contexts: readonly ContextModule[] = CONTEXTS): Promise<Express> {
  const parts = contexts === CONTEXTS ? SERVICE : hostParts(contexts);
  const config = container.get<AppConfig>(CONFIG);
  const logger = container.get<Logger>(LOGGER);
  const get = getterOf(container);
  const paths: ZodOpenApiPathsObject = {};
  const readers: Array<(paths: ZodOpenApiPathsObject) => void> = [];
  const deps: RouterDeps = {
    ...parts.admission.build(provide(container, parts.admission.needs), config),
    paths,
    routes: new RouteTable(),
    secureCookies: config.publicBaseUrl.startsWith('https://'),
    documented: (use) => void readers.push(use),
  };
  for (const router of parts.routers) router.build(deps, provide(container, router.needs));
  for (const intake of parts.intakes) intake.document(paths);
  const streamsItsBody = parts.streamsItsBody;
  const admit = admission(deps.authenticate, deps.gates);
  const areaGates = parts.areaGates.map(
    ({ paths: prefixes, handler }): RequestHandler =>
      (req, res, next) =>
        prefixes.some((prefix) => under(`${req.baseUrl}${req.path}`, prefix)) ? handler(req, res, next) : next(),
  );
  // The host's one admission chain, as a call for the front paths that answer before the parsers (event ingest).
  const host: HostAdmission = { admit: asCall([admit, ...areaGates]) };
  const fronts: FrontHandlers[] = await Promise.all(
    parts.fronts.map(async (front) => front.build(provide(container, front.needs), { ...host, config, get })),
  );
  const stage = (name: FrontStage) => fronts.flatMap((handlers) => handlers[name] ?? []);

  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers (X-Forwarded-For/-Proto/-Host: req.ip, req.protocol, req.host) are believed only
  // from the proxies the operator names; otherwise any local process or pass-through proxy could pick
  // the client address that per-caller limits count.
  app.set('trust proxy', config.trustProxy.length > 0 ? [...config.trustProxy] : false);
  app.use(requestLog(logger, { quietPaths: parts.quietPaths, redactUrl: parts.redactUrl }));
  // The intakes' answers (a 202, a 429, an error envelope) are a few hundred bytes, below what is
  // compressed: their requests, the busiest of all, skip the compressor's wrappers.
  app.use((req, res, next) => (req.method === 'POST' && streamsItsBody(req.path) ? next() : compressedAnswers(req, res, next)));
  for (const handler of stage('first')) app.use(handler);
  app.use(pathCheck);
  // Text PostgreSQL cannot keep (NUL, lone surrogates) is refused here for every route: the URL now,
  // parsed bodies right after the parsers, and streamed bodies by their reader (readJsonBody).
  app.use(storableUrlText);
  // Host routing (custom domains) and the views that skip what follows up to the routes (public status pages).
  for (const handler of stage('hosts')) app.use(handler);
  // Streamed intakes, built once for this host (event ingest shares its in-flight bound between its two ways in).
  const streamed = parts.streamedIntakes.map((intake) => intake.build(provide(container, intake.needs), host));
  // Their front paths (events sent with a bearer token) skip what follows (parsers, audit, route table).
  for (const { front } of streamed) if (front) app.use(front);
  // Callers that are not users (probes): their APIs have their own credentials, parser and limits (and no audit).
  for (const intake of parts.intakes) {
    app.use(intake.path, intake.build(provide(container, intake.needs)));
  }
  for (const handler of stage('guards')) app.use(handler);
  const json = express.json({ limit: '1mb' });
  const urlencoded = express.urlencoded({ extended: false, limit: '64kb' });
  // Streamed intakes (event ingest) read their own body, against their limits, after their rate is decided.
  app.use((req, res, next) => (streamsItsBody(req.path) ? next() : json(req, res, next)));
  app.use((req, res, next) => (streamsItsBody(req.path) ? next() : urlencoded(req, res, next)));
  app.use(storableBodyText);
  app.use(jsonDepthLimit);
  app.use(cookieParser());
  for (const handler of stage('parsed')) app.use(handler);
  app.use('/api', admit);
  for (const admitted of parts.admits) app.use([...admitted.paths], admitted.gates ? admit : admission(deps.authenticate, []));
  const audited = ['/api', ...parts.admits.flatMap((admitted) => admitted.paths)];
  // Streamed intakes are the data plane (event ingest: its incidents keep their own timeline), not a change of configuration.
  app.use(audited, (req, res, next) => (streamsItsBody(req.originalUrl.split('?')[0]!) ? next() : auditRequests(req, res, next)));
  for (const gate of parts.areaGates) app.use([...gate.paths], gate.handler);
  // The streamed intakes' own step before their route: the rate, then the body read against its limits.
  for (const { path, handler } of streamed.flatMap(({ posts }) => posts)) app.post(path, handler);
  mountOpenApi(app, buildOpenApiDocument(paths));
  for (const read of readers) read(paths);
  // The document is written (mountOpenApi keeps its text) and its readers have taken what they keep.
  // The routers keep their deps, so `paths` too, for the process's life: emptied, it lets go of the
  // schemas only the document read (the answers', the examples), about 3 MB of a small service's live heap.
  for (const path of Object.keys(paths)) delete paths[path];
  const withConsole = mountConsole(app, undefined, { secureCookies: deps.secureCookies });
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
  // A cut request's connections are reset under it: whatever it then fails with, the stop is why.
  if (isCutByStop(error) || (currentScope()?.cut === true && isDatabaseOutage(error))) {
    req.log?.warn({ err: error }, 'request past its stop grace: answered 503 serviceStopping, nothing committed');
    return next(new AppError('serviceStopping', { retryAfter: DATABASE_RETRY_AFTER_SECONDS }));
  }
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
