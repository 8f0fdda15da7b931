import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';
import { linkToken, readLinkToken } from './link-token';
import { isPreviewRequest } from '../features/link-clicks/preview-requests';

const box = new SecretBox(randomBytes(32).toString('base64'));

describe('tracked-link tokens', () => {
  it('name the message they were made for, and are short and URL-safe', () => {
    const token = linkToken(box, 42, 123_456_789);
    expect(token).toMatch(/^[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{16}$/);
    expect(token.length).toBeLessThanOrEqual(32);
    expect(readLinkToken(box, token)).toEqual({ accountId: 42, messageId: 123_456_789 });
  });

  it('refuse anything Herald did not sign: another message, another account, another key, a mangled token', () => {
    const token = linkToken(box, 42, 7);
    const [account, message, signature] = token.split('.');
    expect(readLinkToken(box, `${account}.8.${signature}`)).toBeNull();
    expect(readLinkToken(box, `1a.${message}.${signature}`)).toBeNull();
    expect(readLinkToken(new SecretBox(randomBytes(32).toString('base64')), token)).toBeNull();
    expect(readLinkToken(box, `${token}x`)).toBeNull();
    expect(readLinkToken(box, token.slice(0, -1))).toBeNull();
    expect(readLinkToken(box, 'https://evil.example.com')).toBeNull();
    expect(readLinkToken(box, '')).toBeNull();
  });
});

describe('preview requests', () => {
  const get = (headers: Record<string, string> = {}, method = 'GET') => isPreviewRequest({ method, headers });

  it('are link-preview fetchers, crawlers, prefetches and HEAD checks', () => {
    expect(get({ 'user-agent': 'WhatsApp/2.24.1.6 A' })).toBe(true);
    expect(
      get({ 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' }),
    ).toBe(true);
    expect(get({ 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' })).toBe(true);
    expect(get({ 'user-agent': 'TelegramBot (like TwitterBot)' })).toBe(true);
    expect(get({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).toBe(true);
    expect(get({ 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(get({ purpose: 'prefetch' })).toBe(true);
    expect(get({ 'x-moz': 'prefetch' })).toBe(true);
    expect(get({}, 'HEAD')).toBe(true);
  });

  it('are not a person’s browser, WhatsApp’s in-app one included', () => {
    expect(
      get({
        'user-agent':
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36',
      }),
    ).toBe(false);
    expect(
      get({
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 WhatsApp/2.24.20',
      }),
    ).toBe(false);
    expect(get({})).toBe(false);
  });
});
