import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { extractResourceMetadataUrl } from '@modelcontextprotocol/sdk/client/auth.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * An agent's first contact with the service's MCP server, from nothing but its address: the bare
 * 401 names the protected-resource metadata, that names the authorization server, whose agent_auth
 * block says where to register; an anonymous registration's assertion buys a wsma_ token
 * (tools.public), and the SDK's client connects with it, lists the tools and calls one.
 */
export async function firstContact(mcpUrl: string, options: { fetch?: Fetch; domain?: string } = {}) {
  const fetchFn = options.fetch ?? fetch;
  const bare = await fetchFn(mcpUrl, {
    method: 'POST',
    headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  const resourceMetadataUrl = extractResourceMetadataUrl(bare); // 401: Bearer resource_metadata="…"
  if (bare.status !== 401 || !resourceMetadataUrl) throw new Error(`expected a 401 challenge, got ${bare.status}`);
  const resource = (await (await fetchFn(resourceMetadataUrl)).json()) as { authorization_servers: string[] };
  const issuer = resource.authorization_servers[0]!;
  const server = (await (await fetchFn(`${issuer}/.well-known/oauth-authorization-server`)).json()) as {
    token_endpoint: string;
    agent_auth: { identity_endpoint: string };
  };

  const registered = await fetchFn(server.agent_auth.identity_endpoint, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ type: 'anonymous' }),
  });
  const registration = (await registered.json()) as { identity_assertion: string; claim_token: string; claim_url: string };
  const minted = await fetchFn(server.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: registration.identity_assertion }),
  });
  const { access_token: token } = (await minted.json()) as { access_token: string };

  const client = new Client({ name: 'example-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    fetch: fetchFn,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const lookup = await client.callTool({ name: 'dns_lookup', arguments: { domain: options.domain ?? 'example.com' } });
  await client.close();
  return { registration, token, tools: tools.map((tool) => tool.name), lookup };
}
