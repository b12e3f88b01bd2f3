import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { ERROR_STATUS } from '../shared/error-statuses';
import { addOperation, errorResponse } from '../shared/openapi-fragments';

/** One JSON-RPC 2.0 message of MCP (a request, a notification or a response); batches are not taken. */
export const McpMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string().max(200), z.number().int()]).optional(),
    method: z.string().min(1).max(200).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string().max(10_000), data: z.unknown().optional() }).optional(),
  })
  .strict()
  .meta({ id: 'McpMessage' });

const McpAnswer = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]),
    result: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .meta({ id: 'McpAnswer' });

const ERRORS: ErrorCode[] = ['validationFailed', 'unauthorized', 'routeNotFound'];

/** The MCP endpoint in the API description (its tools are the API's own operations). */
export function documentMcp(paths: ZodOpenApiPathsObject, path: string): void {
  const responses: Record<string, unknown> = {
    '200': {
      description: 'The JSON-RPC answer (tools/list, tools/call, initialize, ...)',
      content: { 'application/json': { schema: McpAnswer } },
    },
    '202': { description: 'A notification or response taken' },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERRORS) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of byStatus) responses[String(status)] = errorResponse(codes);
  addOperation(paths, path, 'post', {
    operationId: 'callMcp',
    summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless)',
    description:
      'For MCP clients (AI agents): initialize, tools/list and tools/call as JSON-RPC 2.0 messages; answers are JSON ' +
      '(no server-held streams: GET and DELETE answer 405 methodNotAllowed). Authorized by a bearer token: an agent ' +
      'token (wsma_), an organization or customer API token (wsm_) or a session token. Without one: 401 with ' +
      '`WWW-Authenticate: Bearer resource_metadata="{base_url}/.well-known/oauth-protected-resource"`. tools/list ' +
      "shows the tools the token's scope reaches; each tool is one operation of this API, and a call runs as that " +
      "operation's request (the same gates, codes, audit and rate limits), its refusal a tool error carrying the " +
      'error envelope. Every tool call is an audit-log entry (action toolCalled, resource mcpTool). Served on the ' +
      'canonical host only; 404 without a code on any other host.',
    tags: ['Agent access'],
    security: [{ bearerAuth: [] }],
    requestBody: { content: { 'application/json': { schema: McpMessage } } },
    responses: responses as ZodOpenApiOperationObject['responses'],
  });
}
