import type { JsonSchema, RefResolver } from './schema-values';

/** One operation of the API, as the fuzz generates requests for it. */
export interface Operation {
  method: string;
  /** OpenAPI form: `/recipient/{id}/`. */
  path: string;
  pathParams: Array<{ name: string; schema: JsonSchema }>;
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  /** The JSON body's schema, when the route declares one. */
  body?: JsonSchema;
}

interface OpenApiParameter {
  in: string;
  name: string;
  schema?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: unknown }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export const routeKey = (operation: { method: string; path: string }) =>
  `${operation.method} ${operation.path}`;

/** `$ref: '#/components/schemas/X'` → the schema X of the document. */
export function refResolver(doc: OpenApiDocument): RefResolver {
  return (ref) => {
    const name = ref.replace('#/components/schemas/', '');
    const schema = doc.components?.schemas?.[name];
    if (!schema) throw new Error(`unresolved $ref ${ref}`);
    return schema;
  };
}

/** Every operation the OpenAPI document describes, with its parameters and JSON body schema. */
export function documentedOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const content = (operation.requestBody as { content?: Record<string, { schema?: JsonSchema }> })
        ?.content;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/**
 * Every route Fastify serves, read from `app.printRoutes({ commonPrefix: false })` (a tree drawn with one
 * level per four columns), in OpenAPI form (`:id` → `{id}`). This is the ground truth the OpenAPI document
 * is compared with, so a route hidden from the document cannot escape the fuzz unnoticed.
 */
export function servedRoutes(printed: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const prefixes: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const level = match[1]!.length / 4;
    const path = (prefixes[level - 1] ?? '') + match[2]!;
    prefixes[level] = path;
    prefixes.length = level + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method) routes.push({ method, path: path.replace(/:(\w+)/g, '{$1}') });
    }
  }
  return routes;
}
