import { describe, expect, it } from 'vitest';
import { stripGraphVersion } from './graph-version';

describe('stripGraphVersion', () => {
  it.each([
    ['/v21.0/123/phone_numbers', '/123/phone_numbers'],
    ['/v25.0/123/messages', '/123/messages'],
    ['/v26.0/oauth/access_token?code=x', '/oauth/access_token?code=x'],
    ['/v18.0/oauth/access_token?code=x', '/oauth/access_token?code=x'],
    ['/v21.0', '/'],
    ['/v21.0?x=1', '/?x=1'],
    ['/123/phone_numbers', '/123/phone_numbers'],
    ['/v21/123', '/v21/123'],
    ['/v21.0abc/1', '/v21.0abc/1'],
    ['/x/v21.0/1', '/x/v21.0/1'],
  ])('%s → %s', (input, expected) => {
    expect(stripGraphVersion(input)).toBe(expected);
  });
});
