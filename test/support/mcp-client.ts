import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { canonicalFetch, CANONICAL_HOST } from './agent-http';

/** The MCP endpoint as an agent addresses it: the canonical base URL (requests reach the test server through canonicalFetch). */
export const MCP_URL = `http://${CANONICAL_HOST}/mcp`;

/** The SDK's own client, connected with a bearer token. */
export async function anMcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(MCP_URL), {
      fetch: canonicalFetch,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The names of the tools the client is shown. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** Calls a tool and answers its structured content, asserting success. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).to.not.equal(true);
  return JSON.parse((result.content[0] as { text: string }).text) as Record<string, any>;
}

/** Calls a tool that the API refuses; asserts the tool error carries the API's envelope with that status and code. */
export async function callRefused(client: Client, name: string, args: Record<string, unknown>, status: number, code?: string) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).to.equal(true);
  const envelope = JSON.parse((result.content[0] as { text: string }).text) as Record<string, any>;
  expect(envelope).to.include({ statusCode: status });
  // The API's envelope; codeless answers (503 while agent auth is off, a bare 404) carry no data.code.
  expect(envelope).to.include.all.keys('error', 'url', 'statusCode', 'statusMessage', 'message');
  if (code !== undefined) expect(envelope.data.code).to.equal(code);
  expect(result.structuredContent).to.deep.equal(envelope);
  return envelope;
}
