import type { Request, RequestHandler, Response } from 'express';
import type { RouteTable } from './route-table';
import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import type { Actor } from '../../../application/shared/actor';
import { AppError } from '../../../domain/shared/app-error';
import type { AuthenticateCaller, Caller } from '../../../application/identity/authenticate-caller';
import type { Gate } from './gates';
import { ERROR_STATUS } from './error-statuses';
import { addOperation, errorResponse } from './openapi-fragments';
import type { ApiTag } from './api-tags';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type AnySchema = z.ZodType;

export interface RouteContext<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

export interface AuthedContext<B, Q, P> extends RouteContext<B, Q, P> {
  caller: Caller;
  actor: Actor;
}

interface RouteBase<BS extends AnySchema | undefined, QS extends AnySchema | undefined, PS extends AnySchema | undefined> {
  method: Method;
  /** OpenAPI form: /api/users/{id}. */
  path: string;
  /** Unique and camelCase, verb first: the method name in generated clients (`listWebsites`). */
  operationId: string;
  summary: string;
  description?: string;
  /** Exactly one, from API_TAGS. */
  tags: readonly [ApiTag];
  body?: BS;
  query?: QS;
  params?: PS;
  response?: AnySchema;
  /** The success answer's media type (application/json unless stated: text/event-stream for a stream). */
  responseType?: string;
  /** Request headers the route reads, documented as header parameters (parsed by its handler). */
  headers?: AnySchema;
  /** Success status (200 unless stated). */
  status?: number;
  /** Codes this endpoint may answer, documented with their statuses. */
  errors?: ErrorCode[];
}

type Infer<S> = S extends AnySchema ? z.output<S> : undefined;

export type PublicRoute<BS extends AnySchema | undefined, QS extends AnySchema | undefined, PS extends AnySchema | undefined> = RouteBase<
  BS,
  QS,
  PS
> & { auth: 'public'; handler: (ctx: RouteContext<Infer<BS>, Infer<QS>, Infer<PS>>) => Promise<unknown> };

export type CallerRoute<BS extends AnySchema | undefined, QS extends AnySchema | undefined, PS extends AnySchema | undefined> = RouteBase<
  BS,
  QS,
  PS
> & { auth?: 'caller'; handler: (ctx: AuthedContext<Infer<BS>, Infer<QS>, Infer<PS>>) => Promise<unknown> };

/**
 * A route as `register` holds it, its schemas' output types erased: `register` parses the request
 * with the route's own schemas before its handler sees it, which is what the typed forms promise.
 */
type RegisteredRoute = RouteBase<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined> &
  (
    | { auth: 'public'; handler: (ctx: RouteContext<unknown, unknown, unknown>) => Promise<unknown> }
    | { auth: 'caller'; handler: (ctx: AuthedContext<unknown, unknown, unknown>) => Promise<unknown> }
  );

export interface ApiRouterDeps {
  authenticate: AuthenticateCaller;
  gates: Gate[];
  paths: ZodOpenApiPathsObject;
  /** Where every resource registers its routes (dispatch by path section). */
  routes: RouteTable;
}

/**
 * One router per resource. Each route is declared once: its zod schemas validate the request and
 * document it in OpenAPI, so the description cannot drift from what the server accepts. Callers are
 * authenticated and gated before routing (admission.ts); a route that is not public requires one.
 */
export class ApiRouter {
  constructor(private readonly deps: ApiRouterDeps) {}

  /** The Express handler serving every registered route (the same for all resources). */
  get router(): RequestHandler {
    return this.deps.routes.handle;
  }

  public<
    BS extends AnySchema | undefined = undefined,
    QS extends AnySchema | undefined = undefined,
    PS extends AnySchema | undefined = undefined,
  >(route: Omit<PublicRoute<BS, QS, PS>, 'auth'>): this {
    this.register({ ...route, auth: 'public' } as RegisteredRoute);
    return this;
  }

  route<
    BS extends AnySchema | undefined = undefined,
    QS extends AnySchema | undefined = undefined,
    PS extends AnySchema | undefined = undefined,
  >(route: CallerRoute<BS, QS, PS>): this {
    this.register({ ...route, auth: 'caller' } as RegisteredRoute);
    return this;
  }

  private register(route: RegisteredRoute): void {
    const expressPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    this.document(route);
    this.deps.routes.routerFor(expressPath)[route.method](expressPath, async (req: Request, res: Response) => {
      // A caller's route answers 401 to a request without a valid credential whatever its input: the
      // schema's verdict is for callers (Authentication, rule 1).
      if (route.auth !== 'public' && !req.auth?.caller) throw req.auth?.failure ?? new AppError('unauthorized');
      const ctx: RouteContext<unknown, unknown, unknown> = {
        body: route.body ? route.body.parse(req.body ?? {}) : undefined,
        query: route.query ? route.query.parse(req.query) : undefined,
        params: route.params ? route.params.parse(req.params) : undefined,
        req,
        res,
      };
      let result: unknown;
      if (route.auth === 'public') {
        result = await route.handler(ctx);
      } else {
        const caller = req.auth?.caller;
        if (!caller) throw req.auth?.failure ?? new AppError('unauthorized');
        result = await route.handler({ ...ctx, caller, actor: caller.actor });
      }
      if (!res.headersSent) {
        if (result === undefined) res.status(route.status ?? 204).end();
        else res.status(route.status ?? 200).json(result);
      }
    });
  }

  private document(route: RegisteredRoute): void {
    const codes: ErrorCode[] = [
      ...(route.body || route.query || route.params ? (['validationFailed'] as ErrorCode[]) : []),
      ...(route.auth === 'public' ? [] : (['unauthorized'] as ErrorCode[])),
      ...(route.errors ?? []),
    ];
    const responses: Record<string, unknown> = {
      [String(route.status ?? (route.response ? 200 : 204))]: route.response
        ? { description: 'Success', content: { [route.responseType ?? 'application/json']: { schema: route.response } } }
        : { description: 'Success' },
    };
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, list] of byStatus) responses[String(status)] = errorResponse(list);
    addOperation(this.deps.paths, route.path, route.method, {
      operationId: route.operationId,
      summary: route.summary,
      description: route.description,
      tags: route.tags,
      security: route.auth === 'public' ? [] : [{ bearerAuth: [] }, { sessionCookie: [] }],
      requestParams: {
        ...(route.query ? { query: route.query as never } : {}),
        ...(route.params ? { path: route.params as never } : {}),
        ...(route.headers ? { header: route.headers as never } : {}),
      },
      requestBody: route.body ? { content: { 'application/json': { schema: route.body } } } : undefined,
      responses: responses as ZodOpenApiOperationObject['responses'],
    });
  }
}
