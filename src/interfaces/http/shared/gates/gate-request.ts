import type { Caller } from '../../../../application/identity/authenticate-caller';

/** What the access gates look at, taken off the Express request once. */
export interface GateRequest {
  readonly method: string;
  /** The path without query string or trailing slash. */
  readonly path: string;
  readonly viaCookie: boolean;
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  /** This server's own origin as the client addressed it (computed on demand). */
  ownOrigin(): string;
}

export type Gate = (caller: Caller, request: GateRequest) => void | Promise<void>;

export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';

export const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
