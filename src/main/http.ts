import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import cookieParser from 'cookie-parser';
import { pinoHttp } from 'pino-http';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AuthenticateCaller } from '../application/identity/authenticate-caller';
import { accessGates } from '../interfaces/http/shared/gates';
import { admission } from '../interfaces/http/shared/admission';
import { assertUnambiguousPath } from '../interfaces/http/shared/gates/path-ambiguity';
import { errorHandler, notFoundHandler } from '../interfaces/http/shared/error-handler';
import { buildOpenApiDocument, mountOpenApi } from '../interfaces/http/shared/openapi';
import type { RouterDeps } from '../interfaces/http/shared/use-cases';
import { authRouter } from '../interfaces/http/identity/auth.router';
import { customersRouter } from '../interfaces/http/tenancy/customers.router';
import { packageConfigsRouter } from '../interfaces/http/tenancy/package-configs.router';
import { customFieldsRouter } from '../interfaces/http/tenancy/custom-fields.router';
import { customerDomainsRouter } from '../interfaces/http/tenancy/customer-domains.router';
import { customerIpsRouter } from '../interfaces/http/tenancy/customer-ips.router';
import { usersRouter } from '../interfaces/http/identity/users.router';
import { organizationRouter } from '../interfaces/http/identity/organization.router';
import { tokensRouter } from '../interfaces/http/identity/tokens.router';
import { accountRouter } from '../interfaces/http/identity/account.router';
import { platformAdminRouter } from '../interfaces/http/identity/platform-admin.router';
import { healthRouter } from '../interfaces/http/identity/health.router';
import type { AppConfig } from './config';
import { CONFIG, LOGGER, ORM } from './tokens';

/** Every resource router, in mounting order. */
const ROUTERS = [
  authRouter, usersRouter, organizationRouter, tokensRouter, accountRouter, platformAdminRouter, healthRouter,
  customersRouter, packageConfigsRouter, customFieldsRouter, customerDomainsRouter, customerIpsRouter,
];

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The Express host: request ids and logs, the path check, parsers, the routers, and the envelope. */
export function createHttpApp(container: Container): Express {
  const config = container.get<AppConfig>(CONFIG);
  const logger = container.get<Logger>(LOGGER);
  const orm = container.get<MikroORM>(ORM);
  const paths: ZodOpenApiPathsObject = {};
  const deps: RouterDeps = {
    container,
    authenticate: container.get(AuthenticateCaller),
    gates: accessGates({ trustedOrigins: config.trustedOrigins }),
    paths,
    secureCookies: config.publicBaseUrl.startsWith('https://'),
  };
  const routers = ROUTERS.map((build) => build(deps));

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(pinoHttp({
    logger,
    genReqId: (req, res) => {
      const sent = req.headers['x-request-id'];
      const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: { req: (req) => ({ id: req.id, method: req.method, url: req.url }), res: (res) => ({ statusCode: res.statusCode }) },
  }));
  app.use(pathCheck);
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false, limit: '64kb' }));
  app.use(cookieParser());
  app.use((_req, _res, next) => RequestContext.create(orm.em, next));
  app.use('/api', admission(deps.authenticate, deps.gates));
  mountOpenApi(app, buildOpenApiDocument(paths, config.publicBaseUrl));
  for (const router of routers) app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/** Ambiguous paths are refused before routing, on the path exactly as sent. */
const pathCheck: RequestHandler = (req, _res, next) => {
  try {
    assertUnambiguousPath(req.originalUrl);
    next();
  } catch (error) {
    next(error);
  }
};
