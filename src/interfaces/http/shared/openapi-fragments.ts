import { z } from 'zod';
import 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { API_TAGS, type ApiTag } from './api-tags';
import { CODELESS } from './error-statuses';
import { FIELD_ERROR_CODES, FIELD_ERROR_SET } from './field-errors';

export const ErrorEnvelopeSchema = z
  .object({
    error: z.literal(true),
    url: z.string().meta({ description: 'The failed request URL' }),
    statusCode: z.number().int(),
    statusMessage: z.string(),
    message: z.string().meta({ description: 'Same as statusMessage' }),
    data: z
      .object({
        code: z.string().optional().meta({ description: 'Stable error code' }),
        retryAfter: z.number().int().optional().meta({ description: 'Seconds, on 429' }),
        field: z
          .string()
          .optional()
          .meta({
            description:
              'The field of the request body the error is about, as a JSON pointer (RFC 6901): `/checkInterval`, `/config/url`, ' +
              '`/targets/0/id`. Always sent with the codes in x-field-error-codes (schema issues point at the first issue), ' +
              'and with any other code a rule raises about one field',
            'x-field-error-codes': [...FIELD_ERROR_CODES],
          }),
      })
      .catchall(z.unknown())
      .optional(),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Envelope of every non-2xx response' });

const quoted = (codes: readonly ErrorCode[]) => codes.map((c) => `\`${c}\`${FIELD_ERROR_SET.has(c) ? ' (data.field)' : ''}`).join(', ');

/**
 * An error response: the codes it answers in `data.code`, and apart, after the words "answered
 * without data.code", those the spec requires to answer without one (CODELESS: the agent
 * endpoints' 404 and 503, the event intake's 429, ...), so a client reading the document does not
 * wait for a code that will not come.
 */
export const errorResponse = (codes: ErrorCode[]) => {
  const coded = codes.filter((c) => !CODELESS.has(c));
  const codeless = codes.filter((c) => CODELESS.has(c));
  const parts = [
    ...(coded.length > 0 ? [`Codes: ${quoted(coded)}`] : []),
    ...(codeless.length > 0 ? [`answered without data.code: ${quoted(codeless)}`] : []),
  ];
  return {
    description: `Error. ${parts.join('; ')}`,
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  };
};

/** camelCase, starting with a verb by convention: `listWebsites`, `getWebsiteUptimeStats`. */
const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;
const TAG_NAMES: ReadonlySet<string> = new Set(API_TAGS.map((tag) => tag.name));
const operationIds = new WeakMap<ZodOpenApiPathsObject, Map<string, string>>();

export type DocumentedOperation = Omit<ZodOpenApiOperationObject, 'operationId' | 'tags'> & {
  operationId: string;
  tags: readonly [ApiTag];
};

/**
 * Puts one operation in the document, refusing at start what generated clients cannot live with: an
 * operationId that is missing, not camelCase or already taken, a tag outside the tag list, or a
 * route declared twice.
 */
export function addOperation(paths: ZodOpenApiPathsObject, path: string, method: string, operation: DocumentedOperation): void {
  const route = `${method.toUpperCase()} ${path}`;
  const { operationId, tags } = operation;
  if (!OPERATION_ID.test(operationId ?? '')) throw new Error(`${route}: operationId "${operationId}" is not camelCase`);
  if (tags?.length !== 1 || !TAG_NAMES.has(tags[0]))
    throw new Error(`${route}: needs exactly one tag from API_TAGS, has ${JSON.stringify(tags)}`);
  const taken = operationIds.get(paths) ?? new Map<string, string>();
  operationIds.set(paths, taken);
  const owner = taken.get(operationId);
  if (owner) throw new Error(`${route}: operationId "${operationId}" is already ${owner}'s`);
  const item = (paths[path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
  if (item[method]) throw new Error(`${route} is declared twice`);
  taken.set(operationId, route);
  item[method] = { ...operation, tags: [...tags] };
}
