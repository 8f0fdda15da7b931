import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

const box = new SecretBox(randomBytes(32).toString('base64'));

describe('SecretBox', () => {
  it('round-trips and never repeats a ciphertext', () => {
    const a = box.seal('123456');
    const b = box.seal('123456');
    expect(a).not.toBe(b);
    expect(a).not.toContain('123456');
    expect(box.open(a)).toBe('123456');
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = box.seal('EAAtoken');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('EAAtokem').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
  });

  it('refuses another key', () => {
    const other = new SecretBox(randomBytes(32).toString('base64'));
    expect(() => other.open(box.seal('x'))).toThrow();
  });

  it('rejects a key of the wrong size', () => {
    expect(() => new SecretBox(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
