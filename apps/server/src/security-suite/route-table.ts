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

// One reader of Fastify's own route table (printRoutes) for the whole security suite.
export { routeKey, servedRoutes } from './route-matrix';

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
