import type { Request, RequestHandler, Response } from 'express';
import { AGENT_ENDPOINTS } from '../../../application/agent-access/ports';
import { RecordToolCall } from '../../../application/audit/record-tool-call';
import type { Caller } from '../../../application/identity/authenticate-caller';
import { mayTake } from '../../../application/shared/actor';
import { AppError, isAppError } from '../../../domain/shared/app-error';
import type { Gate, GateRequest } from '../shared/gates';
import { defineRouter } from '../shared/router-deps';
import { dispatchToApi } from './api-dispatch';
import { documentMcp, McpMessage } from './mcp-openapi';
import { TOOL_CATALOGUE } from './tool-catalogue';
import { apiCallOf, bindTools, toolOperations, type ToolOperation } from './tool-operations';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

/**
 * The MCP SDK (about 7 MB of heap) is loaded with the first MCP request, not at start: a service no
 * agent talks to never holds it.
 */
const mcpModules = async () => {
  const [{ mcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import('./mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]);
  return { mcpServer, WebStandardStreamableHTTPServerTransport };
};

/** The MCP endpoint's path, on the canonical host only. */
export const MCP_PATH = '/mcp';

/**
 * Whether every access gate lets the caller reach a tool's route and the role gates let it take the
 * tool's act (the same gates a call then passes).
 */
async function reaches(gates: readonly Gate[], caller: Caller, tool: ToolOperation): Promise<boolean> {
  if (tool.action && !mayTake(caller.actor, tool.action)) return false;
  const request: GateRequest = {
    method: tool.method,
    path: tool.path.replace(/\{\w+\}/g, 'id'),
    viaCookie: false,
    origin: undefined,
    secFetchSite: undefined,
    ownOrigin: () => '',
  };
  try {
    for (const gate of gates) await gate(caller, request);
    return true;
  } catch (error) {
    if (isAppError(error)) return false;
    throw error;
  }
}

/** The SDK transport's refusal (a JSON-RPC error body) as the API's 400, in the error envelope. */
async function refusal(answer: globalThis.Response): Promise<AppError> {
  const text = await answer.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
  } catch {
    /* not JSON: the text is the message */
  }
  return new AppError('validationFailed', { issues: [{ path: [], message, code: 'mcp' }] });
}

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP (the official SDK's transport,
 * stateless, JSON answers). The caller is the bearer token's (agent, API or session token; never a
 * cookie), authenticated by the host's admission like /api; each tool call is then a request of the
 * API itself (api-dispatch.ts), gated, audited and rate-limited as the API is, and one audit entry
 * of its own. Without a credential: 401 and a WWW-Authenticate naming the protected-resource metadata.
 */
export const mcpRouter = defineRouter({ agentEndpoints: AGENT_ENDPOINTS, recordToolCall: RecordToolCall }, (deps, use) => {
  let bound: ToolOperation[] | undefined;
  // The tools' operations, kept once every router has documented its routes (the host then lets the rest go); bound at the first request.
  let operations: ZodOpenApiPathsObject = {};
  deps.documented((paths) => (operations = toolOperations(paths, TOOL_CATALOGUE)));
  const catalogue = () => (bound ??= bindTools(operations, TOOL_CATALOGUE));

  const challenge = (res: Response, invalidToken: boolean) => {
    const metadata = `${use.agentEndpoints.issuer}/.well-known/oauth-protected-resource`;
    res.set('WWW-Authenticate', `Bearer resource_metadata="${metadata}"${invalidToken ? ', error="invalid_token"' : ''}`);
  };

  const serve: RequestHandler = async (req: Request, res: Response) => {
    const caller = req.auth?.viaCookie ? undefined : req.auth?.caller;
    if (!caller) {
      challenge(res, req.auth?.failure !== undefined && !req.auth.viaCookie);
      throw (req.auth?.viaCookie ? undefined : req.auth?.failure) ?? new AppError('unauthorized');
    }
    McpMessage.parse(req.body);
    const { mcpServer, WebStandardStreamableHTTPServerTransport } = await mcpModules();
    const label = caller.user.email;
    const server = mcpServer(catalogue(), {
      listed: async () => {
        const tools = catalogue();
        const reached = await Promise.all(tools.map((tool) => reaches(deps.gates, caller, tool)));
        return tools.filter((_tool, index) => reached[index]);
      },
      call: async (tool, args) => {
        await use.recordToolCall.execute({ actor: caller.actor, label }, tool.name);
        return dispatchToApi(req, apiCallOf(tool, args));
      },
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const version = req.get('mcp-protocol-version');
      const request = new globalThis.Request(`${use.agentEndpoints.issuer}${MCP_PATH}`, {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...(version ? { 'mcp-protocol-version': version } : {}),
        },
      });
      const answer = await transport.handleRequest(request, { parsedBody: req.body });
      if (answer.status >= 400) throw await refusal(answer);
      res.status(answer.status);
      const body = await answer.text();
      if (body) res.type('application/json').send(body);
      else res.end();
    } finally {
      await server.close();
    }
  };

  const router = deps.routes.routerFor(MCP_PATH);
  router.post(MCP_PATH, serve);
  // No server-held streams (stateless): the transport's GET stream and session DELETE answer 405, as MCP asks.
  router.all(MCP_PATH, (_req, res) => {
    res.set('Allow', 'POST');
    throw new AppError('methodNotAllowed');
  });
  documentMcp(deps.paths, MCP_PATH);
  return router;
});
