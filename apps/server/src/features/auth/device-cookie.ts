import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidTokenError, type TokenIssuer } from '../../security/tokens';

/** The cookie a browser gets once it signed in (OWASP's "device cookies", decision 063). */
export const DEVICE_COOKIE = 'herald_device';
/** Sent only to the calls whose attempts it vouches for: sign-in and the password reset. */
const DEVICE_COOKIE_PATH = '/api/auth/';
/** A JWT is base64url and dots; anything longer or other is no device cookie of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_.-]{1,2048}$/;

/** The device cookie's value in a Cookie header, or undefined; malformed headers are simply not read. */
export function deviceCookieValue(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== DEVICE_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    if (TOKEN_SHAPE.test(value)) return value;
  }
  return undefined;
}

/**
 * The key of this browser's own attempt counter when it holds a valid device cookie naming `userId`, else
 * undefined (an untrusted client). A cookie of another user, forged, expired or malformed is simply untrusted.
 */
export async function trustedDevice(
  tokens: TokenIssuer,
  value: string | undefined,
  userId: number | undefined,
): Promise<string | undefined> {
  if (value === undefined || userId === undefined) return undefined;
  try {
    const device = await tokens.verifyDevice(value);
    return device.user_id === userId ? `${userId}/${device.jti}` : undefined;
  } catch (error) {
    if (error instanceof InvalidTokenError) return undefined;
    throw error;
  }
}

/**
 * Gives the browser a fresh device cookie naming the user: HttpOnly (no script reads it), SameSite=Strict (no
 * other site's page sends it), Secure whenever the request came over HTTPS (TRUST_PROXY decides behind a
 * proxy), and long-lived. A new sign-in replaces the previous one, so one browser trusts its latest user.
 */
export function setDeviceCookie(
  reply: FastifyReply,
  request: FastifyRequest,
  device: { token: string; maxAgeSeconds: number },
): void {
  const attributes = [
    `${DEVICE_COOKIE}=${device.token}`,
    `Path=${DEVICE_COOKIE_PATH}`,
    `Max-Age=${device.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (request.protocol === 'https') attributes.push('Secure');
  reply.header('set-cookie', attributes.join('; '));
}
