import { describe, expect, it } from 'vitest';
import { authReducer, initialAuthState, logout, setCredentials, updateTokens } from './auth-slice';

describe('auth slice (the session)', () => {
  it('starts signed out with both tokens null', () => {
    expect(authReducer(undefined, { type: '@@init' })).toEqual({ accessToken: null, refreshToken: null });
  });

  it('setCredentials stores both tokens', () => {
    const state = authReducer(initialAuthState, setCredentials({ accessToken: 'a1', refreshToken: 'r1' }));
    expect(state).toEqual({ accessToken: 'a1', refreshToken: 'r1' });
  });

  it('updateTokens replaces both tokens', () => {
    const signedIn = { accessToken: 'a1', refreshToken: 'r1' };
    expect(authReducer(signedIn, updateTokens({ accessToken: 'a2', refreshToken: 'r2' }))).toEqual({
      accessToken: 'a2',
      refreshToken: 'r2',
    });
  });

  it('logout sets both tokens to null', () => {
    expect(authReducer({ accessToken: 'a1', refreshToken: 'r1' }, logout())).toEqual({
      accessToken: null,
      refreshToken: null,
    });
  });
});
