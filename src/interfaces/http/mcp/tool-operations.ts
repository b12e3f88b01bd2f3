import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ToolDefinition } from './tool-catalogue';

type Shape = Record<string, z.ZodType>;

/** A tool bound to its REST operation: where a call goes, and the route's own schemas as its input. */
export interface ToolOperation extends ToolDefinition {
  readonly method: string;
  /** OpenAPI form: /api/websites/{id}. */
  readonly path: string;
  readonly readOnly: boolean;
  /** Argument names taken by the path, the query and the body (the body's fields side by side with the others). */
  readonly pathFields: ReadonlySet<string>;
  readonly queryFields: ReadonlySet<string>;
  /** Every argument name the tool takes (the input schema's properties). */
  readonly argumentNames: ReadonlySet<string>;
  /** Whether the route reads a body of arguments (not a fixed body). */
  readonly takesBody: boolean;
  /** JSON Schema of the arguments (draft 2020-12), generated from the route's zod schemas as they read input. */
  readonly inputSchema: Record<string, unknown>;
}

const shapeOf = (schema: unknown): Shape => (schema instanceof z.ZodObject ? (schema.shape as Shape) : {});

/** The route's operation in the OpenAPI paths its router documented. */
function findOperation(paths: ZodOpenApiPathsObject, operationId: string) {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, ZodOpenApiOperationObject>)) {
      if (operation.operationId === operationId) return { path, method, operation };
    }
  }
  throw new Error(`MCP tool: no operation ${operationId} in the API`);
}

/** The documented operations the tools are bound to, out of the API's paths (which the host does not keep). */
export function toolOperations(paths: ZodOpenApiPathsObject, tools: readonly ToolDefinition[]): ZodOpenApiPathsObject {
  const wanted = new Set(tools.map((tool) => tool.operationId));
  const kept: ZodOpenApiPathsObject = {};
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, ZodOpenApiOperationObject>)) {
      if (!wanted.has(operation.operationId ?? '')) continue;
      const item = (kept[path] ??= {}) as Record<string, ZodOpenApiOperationObject>;
      item[method] = operation;
    }
  }
  return kept;
}

/**
 * Binds each tool to its operation. The route's body must be a zod object whose fields do not
 * collide with its path or query names (refused at start otherwise), so arguments are one flat object.
 */
export function bindTools(paths: ZodOpenApiPathsObject, tools: readonly ToolDefinition[]): ToolOperation[] {
  return tools.map((tool) => {
    const { path, method, operation } = findOperation(paths, tool.operationId);
    const params = shapeOf(operation.requestParams?.path);
    const query = shapeOf(operation.requestParams?.query);
    const bodySchema = (operation.requestBody?.content as Record<string, { schema?: unknown }> | undefined)?.['application/json']?.schema;
    if (bodySchema !== undefined && !(bodySchema instanceof z.ZodObject)) throw new Error(`MCP tool ${tool.name}: body is not an object`);
    const body = tool.fixedBody ? {} : shapeOf(bodySchema);
    const names = [...Object.keys(params), ...Object.keys(query), ...Object.keys(body)];
    if (new Set(names).size !== names.length) throw new Error(`MCP tool ${tool.name}: path, query and body fields collide`);
    const inputSchema = z.toJSONSchema(z.object({ ...params, ...query, ...body }), {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
    }) as Record<string, unknown>;
    delete inputSchema.$schema;
    const defaults = Object.fromEntries(Object.entries(tool.defaults ?? {}).filter(([name]) => name in query));
    return {
      ...tool,
      defaults,
      method: method.toUpperCase(),
      path,
      readOnly: method === 'get',
      pathFields: new Set(Object.keys(params)),
      queryFields: new Set(Object.keys(query)),
      argumentNames: new Set(names),
      takesBody: bodySchema !== undefined && !tool.fixedBody,
      inputSchema,
      description: `${tool.description}${operation.description ? `\n\n${operation.description}` : ''}`,
    };
  });
}

/** A call's request of the API: the arguments put back where the route reads them. */
export interface ApiCall {
  readonly method: string;
  readonly url: string;
  readonly body?: Record<string, unknown>;
}

const queryValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Puts each argument where its route reads it: path parameters into the path, query fields into the
 * query string, the rest into the body (the caller refuses names the tool does not take first).
 */
export function apiCallOf(tool: ToolOperation, args: Record<string, unknown>): ApiCall {
  const query = new URLSearchParams(tool.defaults as Record<string, string>);
  const body: Record<string, unknown> = { ...tool.fixedBody };
  let path = tool.path;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (tool.pathFields.has(name)) path = path.replace(`{${name}}`, encodeURIComponent(queryValue(value)));
    else if (tool.queryFields.has(name)) query.set(name, queryValue(value));
    else body[name] = value;
  }
  // A path parameter left out stays a segment no id matches: the route answers its not-found code.
  path = path.replace(/\{(\w+)\}/g, '-');
  const search = query.toString();
  const withBody = tool.takesBody || tool.fixedBody !== undefined;
  return { method: tool.method, url: `${path}${search ? `?${search}` : ''}`, ...(withBody ? { body } : {}) };
}
