import { z } from 'zod';
import 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { API_TAGS, type ApiTag } from './api-tags';

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
      })
      .catchall(z.unknown())
      .optional(),
  })
  .meta({ id: 'ErrorEnvelope', description: 'Envelope of every non-2xx response' });

export const errorResponse = (codes: ErrorCode[]) => ({
  description: `Error. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}`,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});

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
