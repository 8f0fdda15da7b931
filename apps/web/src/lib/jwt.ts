/**
 * The `exp` claim (seconds since the epoch) of a JWT, read without verifying the signature: the browser
 * only uses it to decide whether a refresh is worth trying. Null when the token cannot be read.
 */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const claims: unknown = JSON.parse(atob(padded));
    if (typeof claims !== 'object' || claims === null) return null;
    const { exp } = claims as { exp?: unknown };
    return typeof exp === 'number' && Number.isFinite(exp) ? exp : null;
  } catch {
    return null;
  }
}

/** True when the token has no readable expiry or it has passed. */
export function isJwtExpired(token: string, nowMs: number = Date.now()): boolean {
  const exp = jwtExpiry(token);
  return exp === null || exp * 1000 <= nowMs;
}
