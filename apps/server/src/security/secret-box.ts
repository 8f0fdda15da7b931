import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * AES-256-GCM for secrets we must read back (business tokens, two-step PINs). Format: v1.iv.tag.ciphertext.
 * Also signs values Herald hands out and must recognise (tracked links), with a key derived per purpose so a
 * signature never doubles as anything else.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly macKeys = new Map<string, Buffer>();

  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64');
    if (this.key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** HMAC-SHA256 of `data` under this box's key for `purpose`, base64url. */
  mac(purpose: string, data: string): string {
    let key = this.macKeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `herald:${purpose}`, 32));
      this.macKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(data).digest('base64url');
  }

  /** Whether `signature` starts `mac(purpose, data)` (a prefix of at least 16 characters), in constant time. */
  verifyMac(purpose: string, data: string, signature: string): boolean {
    if (signature.length < 16) return false;
    const expected = Buffer.from(this.mac(purpose, data).slice(0, signature.length));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
