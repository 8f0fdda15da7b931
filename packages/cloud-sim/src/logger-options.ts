import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters Graph takes secrets in: tokens, the app secret, the Embedded Signup code, a PIN. */
const SECRET_QUERY =
  /([?&](?:access_token|input_token|fb_exchange_token|client_secret|code|pin|token)=)[^&#]*/gi;

/** The URL with every secret query value masked (Graph accepts `access_token` in the query). */
export function maskSecretQuery(url: string): string {
  return url.replace(SECRET_QUERY, '$1******');
}

/** Where the sandbox's log lines go instead of stdout (a test reads them). */
export interface LogStream {
  write(line: string): void;
}

/**
 * The sandbox's own request log, when turned on: Fastify's fields with secret query values masked, and
 * credentials censored in any headers or parameters a log line carries.
 */
export function sandboxLoggerOptions(
  stream?: LogStream,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        // Fastify's debug line for a rewritten URL (the Graph version stripped) carries the URL as sent.
        'originalUrl',
        '*.access_token',
        '*.client_secret',
        '*.input_token',
        '*.fb_exchange_token',
      ],
      censor: '******',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: typeof request.url === 'string' ? maskSecretQuery(request.url) : undefined,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
