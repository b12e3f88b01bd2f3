import { MCP_PATH, mcpRouter } from '../../interfaces/http/mcp/mcp.router';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/**
 * The MCP server (`POST /mcp`): a way in for agents, not a context of its own. It binds nothing: its
 * tools are the API's operations, run through the host's own pipeline; the audit context binds the
 * use case that records each call.
 */
export const mcpContext: ContextModule = {
  name: 'mcp',
  bindings: bindings(() => {}),
  routers: [mcpRouter],
  // The MCP endpoint authenticates its caller without gates: each tool call is a request of the API, gated there.
  admits: [{ paths: [MCP_PATH], gates: false }],
};
