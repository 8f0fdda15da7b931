import { randomBytes } from 'node:crypto';

/**
 * Meta's message ids look like `wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA`: base64 of a
 * small protobuf holding the recipient and an 18-character hex id. The sandbox builds the same layout with a
 * random id (72 bits: no two alike in any run), as Meta's are: a client must not read an order, a count or
 * another message's id into them.
 */
export class WamidGenerator {
  next(recipientDigits: string): string {
    const id = randomBytes(9).toString('hex').toUpperCase();
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
