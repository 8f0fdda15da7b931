import type { FastifyRequest } from 'fastify';
import { invalidAccessToken, unsupportedRequest } from './errors';
import type { AccessToken, PhoneNumber, SandboxState, Waba } from './state';

const BEARER_OR_OAUTH = /^(?:Bearer|OAuth)\s+(\S+)\s*$/i;
const OAUTH_ONLY = /^OAuth\s+(\S+)\s*$/i;

function presentedToken(request: FastifyRequest, scheme: RegExp): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = scheme.exec(header);
    return match?.[1] ?? '';
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.access_token === 'string') return query.access_token;
  const body = request.body as Record<string, unknown> | undefined;
  if (body !== null && typeof body === 'object' && typeof body.access_token === 'string') {
    return body.access_token;
  }
  return undefined;
}

/** Graph reads the token from the Authorization header, else from `access_token` in the query or body. */
export function authenticate(request: FastifyRequest, state: SandboxState): AccessToken {
  return tokenFor(presentedToken(request, BEARER_OR_OAUTH), state);
}

/** The resumable upload's `upload:` calls take `Authorization: OAuth <token>`, not Bearer. */
export function authenticateOAuth(request: FastifyRequest, state: SandboxState): AccessToken {
  return tokenFor(presentedToken(request, OAUTH_ONLY), state);
}

function tokenFor(presented: string | undefined, state: SandboxState): AccessToken {
  if (presented === undefined) throw invalidAccessToken(false);
  if (!/^EAA[A-Za-z0-9]+$/.test(presented)) throw invalidAccessToken(true);
  const token = state.findToken(presented);
  if (!token) throw invalidAccessToken(false);
  return token;
}

// An id the token was not issued for answers exactly like an id that does not exist (code 100, subcode 33).
export function grantedWaba(token: AccessToken, state: SandboxState, id: string, method: string): Waba {
  const waba = state.findWaba(id);
  if (!waba || !token.wabaIds.includes(waba.id)) throw unsupportedRequest(method, id);
  return waba;
}

export function grantedPhoneNumber(
  token: AccessToken,
  state: SandboxState,
  id: string,
  method: string,
): PhoneNumber {
  const phone = state.findPhoneNumber(id);
  if (!phone || !token.wabaIds.includes(phone.wabaId)) throw unsupportedRequest(method, id);
  return phone;
}

/** A business portfolio the token may act for: one that owns a WABA the token was issued for. */
export function seesBusiness(token: AccessToken, state: SandboxState, businessId: string): boolean {
  return (
    state.hasBusiness(businessId) && token.wabaIds.some((id) => state.findWaba(id)?.businessId === businessId)
  );
}

export function grantedBusiness(token: AccessToken, state: SandboxState, id: string, method: string): string {
  if (!seesBusiness(token, state, id)) throw unsupportedRequest(method, id);
  return id;
}

/**
 * Graph's node type of an id the token may see (a WhatsApp Business Account or one of its numbers), as its
 * errors name it; undefined for any other id.
 */
export function visibleNodeType(token: AccessToken, state: SandboxState, id: string): string | undefined {
  const waba = state.findWaba(id);
  if (waba && token.wabaIds.includes(waba.id)) return 'WhatsAppBusinessAccount';
  const phone = state.findPhoneNumber(id);
  if (phone && token.wabaIds.includes(phone.wabaId)) return 'WhatsAppBusinessPhoneNumber';
  return undefined;
}
