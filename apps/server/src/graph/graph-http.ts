/**
 * The one place Herald builds Cloud API (Graph API) requests and reads Meta's error bodies. Both clients use
 * it: GraphClient (fetch, for everything but message sends) and MessageSender (a keep-alive node:http agent,
 * which holds a connection open and writes the send later), so neither has its own idea of the base URL, the
 * version, the auth header or Meta's error envelope.
 */

/** Where the calls go (the sandbox, or graph.facebook.com when GRAPH_API_BASE says so) and at which version. */
export interface GraphEndpoint {
  baseUrl: string;
  version: string;
}

/** The URL of a Graph path (`/{id}/…`, with its query) at the endpoint's version. */
export function graphUrl(endpoint: GraphEndpoint, path: string): string {
  return `${endpoint.baseUrl}/${endpoint.version}${path}`;
}

/** A request body as the Graph API takes it: JSON (any object), raw bytes, or a multipart form. */
export type GraphBody = object | Buffer | FormData;

/**
 * The headers of a Graph call: the business token as a bearer, and a JSON body's content type (raw bytes set
 * their own; a multipart form's is fetch's, with its boundary). `extra` comes last and wins.
 */
export function graphHeaders(
  token: string | undefined,
  body: GraphBody | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined && !Buffer.isBuffer(body) && !(body instanceof FormData)) {
    headers['content-type'] = 'application/json';
  }
  return Object.assign(headers, extra);
}

/** The bytes a body is sent as. */
export function graphPayload(
  body: GraphBody | undefined,
): string | Uint8Array<ArrayBuffer> | FormData | undefined {
  if (body === undefined || body instanceof FormData) return body;
  return Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body);
}

/** One Graph call over fetch (undici keeps connections alive per origin); fetch's own errors are the caller's. */
export function graphFetch(
  endpoint: GraphEndpoint,
  method: string,
  path: string,
  options: { token?: string; body?: GraphBody; headers?: Record<string, string>; timeoutMs: number },
): Promise<Response> {
  return fetch(graphUrl(endpoint, path), {
    method,
    headers: graphHeaders(options.token, options.body, options.headers),
    body: graphPayload(options.body),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
}

/** A Graph answer's body, or undefined when it is not JSON. */
export function parseGraphJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Meta's error envelope, as the Graph API (and the sandbox) send it. */
export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { details?: string };
    fbtrace_id?: string;
  };
}

/** Meta's error in a parsed answer (`error`), as Meta sent it; undefined when the answer carries none. */
export function graphErrorOf(body: unknown): GraphErrorBody['error'] {
  return (body as GraphErrorBody).error;
}
