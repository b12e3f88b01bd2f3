import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { ERROR_STATUS } from '../shared/error-statuses';
import { addOperation, errorResponse } from '../shared/openapi-fragments';
import type { ApiTag } from '../shared/api-tags';

type Operation = Record<string, unknown>;

const operation = (paths: ZodOpenApiPathsObject, path: string, method: string): Operation =>
  (paths[path] as Record<string, Operation> | undefined)?.[method] ?? {};

/** The form-encoded body of the OAuth endpoints (the router documents JSON by default). */
export function documentFormBody(paths: ZodOpenApiPathsObject, path: string, method: string, schema: z.ZodType): void {
  operation(paths, path, method).requestBody = { content: { 'application/x-www-form-urlencoded': { schema } } };
}

/** Routes outside the JSON router: the markdown guide, the consent page, security event intake. */
export function documentRaw(
  paths: ZodOpenApiPathsObject,
  path: string,
  method: string,
  spec: {
    operationId: string;
    summary: string;
    description?: string;
    tags: readonly [ApiTag];
    success: { status: number; contentType?: string; description: string };
    requestContentType?: string;
    errors?: ErrorCode[];
    query?: z.ZodType;
  },
): void {
  const responses: Record<string, unknown> = {
    [String(spec.success.status)]: spec.success.contentType
      ? { description: spec.success.description, content: { [spec.success.contentType]: { schema: { type: 'string' } } } }
      : { description: spec.success.description },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of spec.errors ?? []) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of byStatus) responses[String(status)] = errorResponse(codes);
  addOperation(paths, path, method, {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    tags: spec.tags,
    security: [],
    requestParams: spec.query ? { query: spec.query as never } : undefined,
    requestBody: spec.requestContentType ? { content: { [spec.requestContentType]: { schema: { type: 'string' } } } } : undefined,
    responses: responses as ZodOpenApiOperationObject['responses'],
  });
}
