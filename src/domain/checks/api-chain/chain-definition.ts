/** The definition of an API check chain: HTTP steps run in order, each able to use what earlier ones extracted. */

export const CHAIN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type ChainMethod = (typeof CHAIN_METHODS)[number];

export const EXTRACTION_SOURCES = ['jsonPath', 'header', 'regex'] as const;
export type ExtractionSource = (typeof EXTRACTION_SOURCES)[number];

export const MATCH_OPS = ['equals', 'contains', 'matches'] as const;
export type MatchOp = (typeof MATCH_OPS)[number];
export const HEADER_OPS = [...MATCH_OPS, 'present'] as const;
export type HeaderOp = (typeof HEADER_OPS)[number];

/** Stores a value of the response in `variable`: a JSON path of the body, a header, or a regular expression's group over the body. */
export interface Extraction {
  readonly variable: string;
  readonly source: ExtractionSource;
  /** The JSON path, the header name, or the regular expression. */
  readonly expression: string;
  /** regex only: the capture group kept (default 1 when the pattern has one, else the whole match). */
  readonly group?: number;
}

export type JsonScalar = string | number | boolean | null;

export type Assertion =
  | { readonly type: 'status'; readonly equals: number }
  | { readonly type: 'jsonPath'; readonly path: string; readonly op: MatchOp; readonly value: JsonScalar }
  | { readonly type: 'header'; readonly name: string; readonly op: HeaderOp; readonly value?: string }
  | { readonly type: 'responseTime'; readonly maxMs: number };
export type AssertionType = Assertion['type'];

export interface ChainStep {
  readonly name: string;
  readonly method: ChainMethod;
  /** An http(s) URL; `{{variable}}` and `{{secrets.NAME}}` may appear in its path and query, never in its scheme, host or port. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
  readonly extract: readonly Extraction[];
  /** None: the step passes on any 2xx status. */
  readonly assertions: readonly Assertion[];
}

/** Limits of one chain (the monitor's timeoutSeconds bounds the whole chain's time). */
export const CHAIN_LIMITS = {
  maxSteps: 10,
  maxExtractionsPerStep: 10,
  maxAssertionsPerStep: 20,
  maxSecrets: 20,
  maxSecretLength: 4096,
  /** Response bytes read per step: past this the body is cut (assertions and extractions see the first bytes only). */
  maxResponseBytes: 256 * 1024,
  /** Body characters kept in the failing step's evidence. */
  evidenceBodyChars: 1024,
} as const;

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
