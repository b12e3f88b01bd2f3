import { expect } from 'chai';
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { apiCallOf, bindTools, toolOperations } from '../../../../src/interfaces/http/mcp/tool-operations';
import { toolResult } from '../../../../src/interfaces/http/mcp/mcp-server';

/** Two documented operations, as routers leave them in the OpenAPI paths. */
const paths = (): ZodOpenApiPathsObject =>
  ({
    '/api/things': {
      get: {
        operationId: 'listThings',
        description: 'A page of things.',
        requestParams: {
          query: z.object({ page: z.coerce.number().default(1), perPage: z.coerce.number().default(50), search: z.string() }),
        },
      },
    },
    '/api/things/{id}': {
      patch: {
        operationId: 'updateThing',
        requestParams: { path: z.object({ id: z.string().min(1) }) },
        requestBody: { content: { 'application/json': { schema: z.object({ name: z.string(), status: z.enum(['on', 'off']) }) } } },
      },
    },
  }) as unknown as ZodOpenApiPathsObject;

describe('MCP tools bound to API operations', () => {
  it("keeps only the tools' operations of the API's paths (the host lets the rest go after start), and binds from them alone", () => {
    const tools = [{ name: 'update_thing', title: 'Update', operationId: 'updateThing', description: 'Use to change a thing.' }];
    const kept = toolOperations(paths(), tools);
    expect(Object.keys(kept)).to.deep.equal(['/api/things/{id}']);
    expect(Object.keys(kept['/api/things/{id}']!)).to.deep.equal(['patch']);
    expect(bindTools(kept, tools)[0]).to.include({ method: 'PATCH', path: '/api/things/{id}' });
    expect(() => bindTools(kept, [{ ...tools[0]!, operationId: 'listThings' }])).to.throw('no operation listThings');
  });

  it("publishes the route's path, query and body fields as one input schema, and the route's description after the tool's", () => {
    const [list, update] = bindTools(paths(), [
      { name: 'find_things', title: 'Find', operationId: 'listThings', description: 'Use to find things.' },
      { name: 'update_thing', title: 'Update', operationId: 'updateThing', description: 'Use to change a thing.' },
    ]);
    expect(list!).to.include({
      method: 'GET',
      path: '/api/things',
      readOnly: true,
      description: 'Use to find things.\n\nA page of things.',
    });
    expect(Object.keys(list!.inputSchema.properties as object)).to.deep.equal(['page', 'perPage', 'search']);
    expect(update!).to.include({ method: 'PATCH', readOnly: false, takesBody: true });
    expect(Object.keys(update!.inputSchema.properties as object)).to.deep.equal(['id', 'name', 'status']);
    expect(update!.inputSchema.required).to.deep.equal(['id', 'name', 'status']);
  });

  it('puts each argument where the route reads it, with the query defaults the arguments leave out', () => {
    const [list, update] = bindTools(paths(), [
      { name: 'find_things', title: 'Find', operationId: 'listThings', description: '.', defaults: { perPage: '20', unknown: '1' } },
      { name: 'update_thing', title: 'Update', operationId: 'updateThing', description: '.' },
    ]);
    expect(apiCallOf(list!, { search: 'a b' })).to.deep.equal({ method: 'GET', url: '/api/things?perPage=20&search=a+b' });
    expect(apiCallOf(list!, { perPage: 5, page: 2 })).to.deep.equal({ method: 'GET', url: '/api/things?perPage=5&page=2' });
    expect(apiCallOf(update!, { id: 'a/b', name: 'x' })).to.deep.equal({ method: 'PATCH', url: '/api/things/a%2Fb', body: { name: 'x' } });
  });

  it('sends a fixed body and takes none of its fields as arguments', () => {
    const [pause] = bindTools(paths(), [
      { name: 'pause_thing', title: 'Pause', operationId: 'updateThing', description: '.', fixedBody: { status: 'off' } },
    ]);
    expect([...pause!.argumentNames]).to.deep.equal(['id']);
    expect(apiCallOf(pause!, { id: '7' })).to.deep.equal({ method: 'PATCH', url: '/api/things/7', body: { status: 'off' } });
  });

  it('refuses at binding an unknown operation and fields that collide', () => {
    expect(() => bindTools(paths(), [{ name: 'x', title: 'X', operationId: 'deleteThing', description: '.' }])).to.throw(
      /no operation deleteThing/,
    );
    const colliding = paths() as Record<string, any>;
    colliding['/api/things/{id}'].patch.requestBody.content['application/json'].schema = z.object({ id: z.string() });
    expect(() =>
      bindTools(colliding as ZodOpenApiPathsObject, [{ name: 'u', title: 'U', operationId: 'updateThing', description: '.' }]),
    ).to.throw(/collide/);
  });

  it("answers the API's JSON as a tool result, and any non-2xx as a tool error carrying the envelope", () => {
    expect(toolResult({ status: 200, body: { total: 1 } })).to.deep.equal({
      content: [{ type: 'text', text: '{"total":1}' }],
      structuredContent: { total: 1 },
    });
    expect(toolResult({ status: 200, body: [1, 2] })).to.deep.equal({ content: [{ type: 'text', text: '[1,2]' }] });
    const envelope = { statusCode: 403, data: { code: 'agentTokenReadOnly' } };
    expect(toolResult({ status: 403, body: envelope })).to.deep.equal({
      content: [{ type: 'text', text: JSON.stringify(envelope) }],
      structuredContent: envelope,
      isError: true,
    });
    expect(toolResult({ status: 204, body: undefined })).to.deep.equal({ content: [{ type: 'text', text: '{"status":204}' }] });
  });
});
