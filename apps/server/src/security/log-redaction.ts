import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/** Where a logger writes: any pino destination (a test passes a stream it reads). */
export type LogDestination = DestinationStream;

/**
 * Field names whose values are secrets wherever a logged object carries them (request bodies, objects passed
 * to `log.info`): passwords, PINs, Herald's tokens, Meta's tokens, codes and client secrets.
 */
const SECRET_FIELDS = [
  'password',
  'new_password',
  'current_password',
  'pin',
  'new_pin',
  'refresh',
  'refresh_token',
  'refreshToken',
  'access',
  'access_token',
  'accessToken',
  'token',
  'client_secret',
  'input_token',
  'fb_exchange_token',
  'business_token',
];

/** Query parameters whose values are secrets; `code` is one here, not as a field (errors carry a `code`). */
const SECRET_QUERY_KEYS = [...SECRET_FIELDS, 'code', 'hub.verify_token'];
const SECRET_QUERY_VALUE = new RegExp(
  `([?&](?:${SECRET_QUERY_KEYS.map((key) => key.replace('.', '\\.')).join('|')})=)[^&#\\s"']*`,
  'gi',
);
const AUTHORIZATION_VALUE = /\b(Bearer|OAuth|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const CENSOR = '[REDACTED]';

/** The text with every secret query value and credential after `Bearer`/`OAuth`/`Basic` masked. */
export function maskSecretsInText(text: string): string {
  return text.replace(SECRET_QUERY_VALUE, `$1${CENSOR}`).replace(AUTHORIZATION_VALUE, `$1 ${CENSOR}`);
}

/**
 * pino paths to censor: credentials in any headers object logged, and secret fields at the top of a logged
 * object or up to three levels down (`body.password`, `req.body.password`, `user.session.refresh`…). pino's
 * wildcards match one level each, so the depths are listed; redaction compiles once, at start-up.
 */
const REDACT_PATHS = [
  ...['authorization', 'cookie', 'x-hub-signature-256', 'set-cookie'].flatMap((header) => [
    `headers["${header}"]`,
    `*.headers["${header}"]`,
    `*.*.headers["${header}"]`,
  ]),
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]),
  ...['body.code', '*.body.code', 'query.code', '*.query.code'],
];

/** Fastify's own request fields (never headers or body), with the URL's secret query values masked. */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    // Any object logged as `req` comes here, not only Fastify's requests.
    url: typeof request.url === 'string' ? maskSecretsInText(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino's error serializer, with secrets masked in the message and stack (a URL may end up in either). */
function errorSerializer(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  return {
    ...serialized,
    message: maskSecretsInText(serialized.message ?? ''),
    stack: maskSecretsInText(serialized.stack ?? ''),
  };
}

/**
 * Herald's logger: level from LOG_LEVEL, secrets never written. `stream` lets a test read what
 * is logged; by default pino writes to stdout.
 */
export function heraldLoggerOptions(
  level: string,
  stream?: LogDestination,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSOR },
    serializers: { req: requestSerializer, err: errorSerializer },
    ...(stream ? { stream } : {}),
  };
}
