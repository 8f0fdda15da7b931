import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { type Config, ConfigError } from '../config';

/** The parts of the configuration the browser policy is built from. */
export type PolicyConfig = Pick<Config, 'sandboxMode' | 'graphApiBase' | 'embeddedSignup'>;

/** Browsers keep HSTS for a year; helmet's default value. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

function originOf(url: string, variable: string): string {
  const origin = new URL(url).origin;
  if (!/^https?:\/\//.test(origin)) {
    throw new ConfigError(`invalid configuration: ${variable} must be an http(s) URL (got "${url}")`);
  }
  return origin;
}

const unique = (values: string[]) => [...new Set(values)];

/**
 * The Content-Security-Policy directives, exact for this configuration (no wildcards, no scheme-wide
 * sources), so that an injected script can neither run nor send the tokens kept in local storage anywhere
 * but Herald and the Embedded Signup provider:
 * - scripts only from Herald and the SDK's origin (config.embeddedSignup.sdkUrl: the sandbox's shim or
 *   connect.facebook.net); Vite's built index.html has no inline script, so no 'unsafe-inline', no nonce;
 * - the sandbox's shim only opens its popup (a window, which no directive governs) and reads postMessage;
 *   Meta's SDK also checks the login status through a hidden frame, fetches and logs from its trusted
 *   origins (www/web.facebook.com) and calls graph.facebook.com from the page: with Meta's API, those
 *   origins are allowed as frames, fetches and images; with the sandbox, no frame at all;
 * - inline styles are allowed: react-hot-toast (goober) writes its CSS into a <style> element at run time.
 *   Styles cannot run script, and the tokens live in local storage, out of reach of CSS selectors;
 * - blob: images and media for the template header previews (object URLs), data: images for the favicon
 *   and Swagger UI's icons.
 */
export function contentSecurityPolicyDirectives(config: PolicyConfig): Record<string, string[]> {
  const sdkOrigin = originOf(config.embeddedSignup.sdkUrl, 'EMBEDDED_SIGNUP_SDK_URL');
  const metaOrigins = config.sandboxMode
    ? []
    : config.embeddedSignup.trustedOrigins.map((origin) =>
        originOf(origin, 'EMBEDDED_SIGNUP_TRUSTED_ORIGINS'),
      );
  const graphOrigins = config.sandboxMode ? [] : [originOf(config.graphApiBase, 'GRAPH_API_BASE')];
  return {
    'default-src': ["'self'"],
    'script-src': unique(["'self'", sdkOrigin]),
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': unique(["'self'", 'data:', 'blob:', ...metaOrigins]),
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'"],
    'connect-src': unique(["'self'", ...metaOrigins, ...graphOrigins]),
    'frame-src': metaOrigins.length > 0 ? unique(metaOrigins) : ["'none'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The header value, as browsers receive it (helmet joins the directives the same way). */
export function contentSecurityPolicy(config: PolicyConfig): string {
  return Object.entries(contentSecurityPolicyDirectives(config))
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join(';');
}

function helmetOptions(config: PolicyConfig): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicyDirectives(config) },
    // The Embedded Signup SDK talks to its popup through window.opener and postMessage: 'same-origin' would
    // cut that link, 'same-origin-allow-popups' keeps it while still isolating Herald from its own opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Cross-origin pages keep seeing Herald's origin (Meta checks the app's domain), never the path.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // For browsers without frame-ancestors.
    xFrameOptions: { action: 'deny' },
    // HSTS depends on how the request arrived: see strictTransportSecurity below.
    strictTransportSecurity: false,
  };
}

/**
 * Only over HTTPS: the socket's own, or the proxy's X-Forwarded-Proto when TRUST_PROXY is set (Fastify's
 * request.protocol reads it only then). Over plain HTTP the header means nothing and would only mislead.
 */
function strictTransportSecurity(request: FastifyRequest, reply: FastifyReply): void {
  if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS_VALUE);
}

/**
 * Security headers on every answer (the SPA, its assets, the API's JSON and errors, /docs, /openapi.json,
 * webhooks, tracked-link redirects): an onRequest hook of the root, registered first, so every route and the
 * 404 handler get them. The policy does not change per request, so the headers helmet sends with these
 * options are read once (`fixedSecurityHeaders`) and set as they are: helmet would rebuild the CSP on every
 * answer, a cost that showed on the tracked-link redirect under a burst of clicks.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: Record<string, string>): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.headers(headers);
    strictTransportSecurity(request, reply);
  });
}

// What a transport adds to any answer: not a security header.
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers helmet sends with these options, read once from a throwaway Fastify instance: copying helmet's
 * own output keeps Herald's answers (and those Fastify gives through `frameworkErrors`, a malformed URL,
 * before any hook runs) exactly what helmet would send, without a second list to maintain.
 */
export async function fixedSecurityHeaders(config: PolicyConfig): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(config));
  probe.get('/', async () => '');
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name, value]) => !TRANSPORT_HEADERS.has(name) && typeof value === 'string')
      .map(([name, value]) => [name, String(value)]),
  );
}

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** The last hop's X-Forwarded-Proto, read the way Fastify reads it under trustProxy. */
function forwardedProto(request: FastifyRequest): string | undefined {
  const header = request.headers['x-forwarded-proto'];
  const value = Array.isArray(header) ? header.at(-1) : header;
  return value?.split(',').at(-1)?.trim();
}

/**
 * Wraps Fastify's `frameworkErrors` handler so that its answers carry the security headers too. Its request
 * is built without Fastify's trustProxy support, so the proxy's protocol is read here when TRUST_PROXY is set.
 */
export function withSecurityHeaders(
  headers: Record<string, string>,
  answer: FrameworkErrorHandler,
  options: { trustProxy: boolean },
): FrameworkErrorHandler {
  return (error, request, reply) => {
    void reply.headers(headers);
    const https = request.protocol === 'https' || (options.trustProxy && forwardedProto(request) === 'https');
    if (https) void reply.header('strict-transport-security', HSTS_VALUE);
    answer(error, request, reply);
  };
}
