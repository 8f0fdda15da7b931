function base64Url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT with the given claims; the web never verifies signatures. */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(claims)}.signature`;
}

/** `exp` for a token that expires `seconds` from now (negative: already expired). */
export function expIn(seconds: number): number {
  return Math.floor(Date.now() / 1000) + seconds;
}
