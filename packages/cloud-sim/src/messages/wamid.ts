import { randomBytes } from 'node:crypto';

/**
 * Meta's message ids look like `wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA`: base64 of a
 * small protobuf holding the recipient and an 18-character hex id. The sandbox builds the same layout
 * from a per-process random prefix and a counter, so ids are unique without a lookup.
 */
export class WamidGenerator {
  private readonly prefix = randomBytes(4).toString('hex').toUpperCase();
  private counter = 0;

  next(recipientDigits: string): string {
    this.counter += 1;
    const id = `${this.prefix}${this.counter.toString(16).toUpperCase().padStart(10, '0')}`;
    const bytes = Buffer.concat([
      Buffer.from([0x1c, 0x18, recipientDigits.length]),
      Buffer.from(recipientDigits, 'latin1'),
      Buffer.from([0x15, 0x02, 0x00, 0x11, 0x18, id.length]),
      Buffer.from(id, 'latin1'),
      Buffer.from([0x00]),
    ]);
    return `wamid.${bytes.toString('base64')}`;
  }
}
