import express, { type RequestHandler, type Router } from 'express';

/**
 * `/api/users/{id}` and `/api/users` share the section `/api/users`. A route whose second segment is
 * a parameter (`/status/{slug}`) belongs to its first segment's section (`/status`).
 */
const sectionOf = (path: string) => {
  const parts = path.split('/', 4);
  if (parts.length >= 3 && /^[:{]/.test(parts[2]!)) return `/${parts[1]}`;
  return parts.length >= 3 ? `/${parts[1]}/${parts[2]}` : path;
};

/**
 * Every route of the service, grouped by path section. A request is dispatched to its section's
 * router through one map lookup, so routing cost does not grow with the number of resources.
 */
export class RouteTable {
  private readonly sections = new Map<string, Router>();

  /** The router that owns a route path (OpenAPI or Express form). */
  routerFor(path: string): Router {
    const section = sectionOf(path);
    let router = this.sections.get(section);
    if (!router) {
      router = express.Router();
      this.sections.set(section, router);
    }
    return router;
  }

  readonly handle: RequestHandler = (req, res, next) => {
    const router = this.sections.get(sectionOf(req.path)) ?? this.sections.get(`/${req.path.split('/', 2)[1]}`);
    if (router) router(req, res, next);
    else next();
  };
}
