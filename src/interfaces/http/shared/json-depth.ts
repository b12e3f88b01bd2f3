import type { RequestHandler } from 'express';
import { AppError } from '../../../domain/shared/app-error';

/**
 * The one nesting limit for every JSON body the service reads (the spec's 20 levels for events):
 * each object or array opens a level, so `{}` is 1 deep and `{"a":[{}]}` is 3. Parsed bodies
 * (express.json) and streamed ones (event and alert-source ingest) are held to the same number and
 * answered the same 422 payloadTooDeep.
 */
export const MAX_JSON_DEPTH = 20;

/** How deep a parsed JSON value nests, stopping as soon as it passes `limit`. */
export function jsonDepthOver(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const level = depth + 1;
    if (level > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: level });
    }
  }
  return false;
}

/** After the body parsers: a parsed JSON body deeper than MAX_JSON_DEPTH is refused before any route sees it. */
export const jsonDepthLimit: RequestHandler = (req, _res, next) => {
  if (req.body !== null && typeof req.body === 'object' && req.is('application/json') && jsonDepthOver(req.body, MAX_JSON_DEPTH)) {
    next(new AppError('payloadTooDeep', { maxDepth: MAX_JSON_DEPTH }));
    return;
  }
  next();
};
