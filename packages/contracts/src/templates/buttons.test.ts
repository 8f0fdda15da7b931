import { describe, expect, it } from 'vitest';
import {
  buttonPhoneNumberError,
  buttonUrlError,
  canAddButton,
  isDynamicUrl,
  parseUrlExamples,
  withUrlVariable,
} from './buttons';

const quick = { type: 'QUICK_REPLY' };
const url = { type: 'URL' };
const phone = { sub_type: 'PHONE_NUMBER' };

describe('canAddButton', () => {
  it('allows buttons under the limits', () => {
    expect(canAddButton([], 'URL')).toEqual({ ok: true });
    expect(canAddButton([url], 'URL')).toEqual({ ok: true });
    expect(canAddButton([url, url], 'PHONE_NUMBER')).toEqual({ ok: true });
  });

  it('alerts on a second phone-number button (form sub_type counted too)', () => {
    expect(canAddButton([phone], 'PHONE_NUMBER')).toEqual({
      ok: false,
      message: 'Only one phone number button allowed',
    });
  });

  it('alerts on a third URL button', () => {
    expect(canAddButton([url, quick, url], 'URL')).toEqual({
      ok: false,
      message: 'Maximum 2 URL buttons allowed',
    });
  });

  it('stops at 10 buttons', () => {
    const ten = Array.from({ length: 10 }, () => quick);
    expect(canAddButton(ten, 'QUICK_REPLY')).toEqual({ ok: false, message: 'Maximum 10 buttons allowed' });
    expect(canAddButton(ten.slice(1), 'QUICK_REPLY')).toEqual({ ok: true });
  });
});

describe('URL buttons', () => {
  it('builds and recognises a dynamic URL', () => {
    expect(withUrlVariable('https://shop.example.com/p/')).toBe('https://shop.example.com/p/{{1}}');
    expect(withUrlVariable('https://shop.example.com/p/{{1}}')).toBe('https://shop.example.com/p/{{1}}');
    expect(isDynamicUrl('https://x.com/{{1}}')).toBe(true);
    expect(isDynamicUrl('https://x.com/')).toBe(false);
  });

  it('splits comma-separated examples with a default', () => {
    expect(parseUrlExamples('summer, winter ,,spring')).toEqual(['summer', 'winter', 'spring']);
    expect(parseUrlExamples('  ')).toEqual(['default_value']);
  });

  it('accepts static and end-variable URLs', () => {
    expect(buttonUrlError('https://shop.example.com/sale')).toBeNull();
    expect(buttonUrlError('http://localhost:5173/x')).toBeNull();
    expect(buttonUrlError('https://shop.example.com/p/{{1}}')).toBeNull();
    expect(buttonUrlError('https://shop.example.com/?code={{1}}')).toBeNull();
  });

  it('refuses variables elsewhere, other numbers, or more than one', () => {
    const msg = 'A dynamic URL can have one variable, {{1}}, at its end';
    expect(buttonUrlError('https://shop.example.com/{{1}}/x')).toBe(msg);
    expect(buttonUrlError('https://shop.example.com/{{2}}')).toBe(msg);
    expect(buttonUrlError('https://shop.example.com/{{1}}{{1}}')).toBe(msg);
    expect(buttonUrlError('https://shop.example.com/{{1')).toBe(msg);
  });

  it('refuses missing, non-http and malformed URLs', () => {
    expect(buttonUrlError(' ')).toBe('URL is required');
    expect(buttonUrlError('ftp://example.com')).toBe('Enter a valid URL starting with http:// or https://');
    expect(buttonUrlError('shop.example.com')).toBe('Enter a valid URL starting with http:// or https://');
    expect(buttonUrlError('https://exa mple.com')).toBe(
      'Enter a valid URL starting with http:// or https://',
    );
    expect(buttonUrlError(`https://example.com/${'a'.repeat(2000)}`)).toBe(
      'URL cannot exceed 2000 characters',
    );
  });
});

describe('phone-number buttons', () => {
  it('needs a number with its country code', () => {
    expect(buttonPhoneNumberError('+15550001111')).toBeNull();
    expect(buttonPhoneNumberError('+44 20 7946 0958')).toBeNull();
    expect(buttonPhoneNumberError('')).toBe('Phone number is required');
    expect(buttonPhoneNumberError('call me')).toBe(
      'Enter a phone number with its country code, e.g. +14155550123',
    );
    expect(buttonPhoneNumberError('+0123')).toBe(
      'Enter a phone number with its country code, e.g. +14155550123',
    );
  });
});
