import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestId } from './request-id';

const withHeader = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestId', () => {
  it("keeps a caller's plain token", () => {
    expect(requestId(withHeader('edge-7f3a.19:2'))).toBe('edge-7f3a.19:2');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['with spaces', 'a b'],
    ['with markup', 'x"><script>'],
    ['too long', 'a'.repeat(129)],
    ['repeated', ['a', 'b']],
  ])('makes a fresh UUID when the header is %s', (_what, value) => {
    expect(requestId(withHeader(value))).toMatch(UUID);
  });
});
