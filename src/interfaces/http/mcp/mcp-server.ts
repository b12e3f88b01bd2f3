import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiAnswer } from './api-dispatch';
import type { ToolOperation } from './tool-operations';

/** What one MCP request may do for its caller: the tools it lists, and running one. */
export interface ToolSession {
  /** The tools whose route the caller's credential reaches (the access gates' own decision). */
  listed(): Promise<readonly ToolOperation[]>;
  /** Runs a tool as a request of the API and records the call. */
  call(tool: ToolOperation, args: Record<string, unknown>): Promise<ApiAnswer>;
}

export const SERVER_INFO = { name: 'monitoring-service', version: '1.0.0' };

const INSTRUCTIONS =
  'Tools of the Monitoring Service API. Each tool is one API operation and answers what the API answers: ' +
  'the JSON result, or, as a tool error, the error envelope {statusCode, message, data: {code}}. ' +
  'agentTokenReadOnly means the token scope does not reach the tool (a person must claim or approve the agent) or agent ' +
  'writes are switched off; ' +
  'agentTokenScopeForbidden means a write outside the granted write scope. Lists are paged (page, perPage, total).';

const toolOf = (tool: ToolOperation): Tool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema as Tool['inputSchema'],
  annotations: {
    title: tool.title,
    readOnlyHint: tool.readOnly,
    destructiveHint: false,
    openWorldHint: tool.operationId.startsWith('lookUp'),
  },
});

/** The API's answer as a tool result: JSON text and structured content; any non-2xx a tool error carrying the envelope. */
export function toolResult(answer: ApiAnswer): CallToolResult {
  const structured = answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body);
  const value = answer.body === undefined ? { status: answer.status } : answer.body;
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(structured ? { structuredContent: answer.body as Record<string, unknown> } : {}),
    ...(answer.status >= 400 ? { isError: true } : {}),
  };
}

/**
 * A stateless MCP server for one HTTP request (the SDK's low-level Server, so the arguments reach the
 * API's route as sent and the route's schemas alone judge them). Listing shows what the caller
 * reaches; a call of any tool of the catalogue, listed or not, goes through the API and answers its
 * refusal (agentTokenReadOnly, agentTokenScopeForbidden, not found) as a tool error.
 */
export function mcpServer(catalogue: readonly ToolOperation[], session: ToolSession): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await session.listed()).map(toolOf) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = catalogue.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    // A name no route field takes would be silently dropped on the way (routes without a body or query read none).
    const unknown = Object.keys(args).filter((name) => !tool.argumentNames.has(name));
    if (unknown.length > 0) throw new McpError(ErrorCode.InvalidParams, `${tool.name} takes no argument ${unknown.join(', ')}`);
    return toolResult(await session.call(tool, args));
  });
  return server;
}
