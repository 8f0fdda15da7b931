import { vi } from 'vitest';

export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/**
 * Replaces the global fetch (undone after each test by the setup file) with `handler`, which sees every
 * call as a Request, whether the code passed a Request or a URL and init. Returns the mock, whose calls
 * list those Requests as `requests()`.
 */
export function stubFetch(handler: FetchHandler) {
  const seen: Request[] = [];
  const mock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request =
      input instanceof Request ? input : new Request(new URL(String(input), location.href), init);
    seen.push(request.clone());
    return handler(request);
  });
  vi.stubGlobal('fetch', mock);
  return Object.assign(mock, { requests: () => seen });
}

/** The path (without origin) of a request. */
export function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}
