import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../db/pool';
import { sessionIsActive } from '../features/auth/refresh-tokens-repo';
import { HttpError } from '../http-error';
import { InvalidTokenError, type AccessClaims, type TokenIssuer } from '../security/tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `authenticate` on routes that require one. */
    user?: AccessClaims;
  }
}

export type RequestHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * An onRequest hook (before body validation, so anonymous callers learn nothing else) that requires
 * `Authorization: Bearer <access token>`: a valid, unexpired token of a session Herald started for that user
 * and that has not been logged out or revoked. Any failure is a 401, which the web answers by refreshing once.
 */
export function authenticate(tokens: TokenIssuer, pool: Pool): RequestHook {
  return async (request) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1])
      throw HttpError.field(401, 'authorization', 'Authentication credentials were not provided.');
    let claims: AccessClaims;
    try {
      claims = await tokens.verifyAccess(match[1]);
    } catch (error) {
      if (error instanceof InvalidTokenError) {
        throw HttpError.field(401, 'authorization', 'The access token is invalid or expired.');
      }
      throw error;
    }
    if (!(await sessionIsActive(pool, claims.sid, claims.user_id))) {
      throw HttpError.field(401, 'authorization', 'This session has ended. Sign in again.');
    }
    request.user = claims;
  };
}
