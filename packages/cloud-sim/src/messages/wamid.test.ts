import { describe, expect, it } from 'vitest';
import { WamidGenerator } from './wamid';

/** The 18-character id inside a wamid, and the recipient it names. */
function decode(wamid: string): { recipient: string; id: string } {
  const bytes = Buffer.from(wamid.slice('wamid.'.length), 'base64');
  const recipientLength = bytes[2]!;
  const recipient = bytes.subarray(3, 3 + recipientLength).toString('latin1');
  const idStart = 3 + recipientLength + 6;
  return { recipient, id: bytes.subarray(idStart, idStart + bytes[idStart - 1]!).toString('latin1') };
}

describe('WamidGenerator', () => {
  it("holds the recipient and an 18-character hex id, in Meta's layout", () => {
    const wamid = new WamidGenerator().next('16505551234');
    expect(wamid).toMatch(/^wamid\.[A-Za-z0-9+/]+=*$/);
    expect(decode(wamid)).toEqual({ recipient: '16505551234', id: expect.stringMatching(/^[0-9A-F]{18}$/) });
  });

  it('gives random ids, as Meta does: no order or count can be read from them', () => {
    const generator = new WamidGenerator();
    const ids = Array.from({ length: 2_000 }, () => decode(generator.next('16505551234')).id);
    expect(new Set(ids).size).toBe(ids.length);
    // Consecutive ids share no prefix a counter would leave (a counter keeps the first 8 characters).
    const sharedPrefixes = ids.slice(1).filter((id, i) => id.slice(0, 8) === ids[i]!.slice(0, 8));
    expect(sharedPrefixes.length).toBeLessThan(5);
    const sorted = [...ids].sort();
    expect(sorted).not.toEqual(ids);
  });
});
