import { describe, expect, it } from 'vitest';
import { expIn, fakeJwt } from '../test/fake-jwt';
import { isJwtExpired, jwtExpiry } from './jwt';

describe('jwt expiry', () => {
  it('reads exp from a base64url payload', () => {
    expect(jwtExpiry(fakeJwt({ exp: 1_900_000_000, email: 'ä@example.com?>' }))).toBe(1_900_000_000);
  });

  it('treats unreadable tokens and tokens without exp as expired', () => {
    expect(jwtExpiry('not-a-jwt')).toBeNull();
    expect(jwtExpiry('a.!!!.c')).toBeNull();
    expect(isJwtExpired(fakeJwt({ sid: 'x' }))).toBe(true);
  });

  it('compares exp with the clock', () => {
    expect(isJwtExpired(fakeJwt({ exp: expIn(60) }))).toBe(false);
    expect(isJwtExpired(fakeJwt({ exp: expIn(-1) }))).toBe(true);
  });
});
