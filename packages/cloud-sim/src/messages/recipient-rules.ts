/**
 * The documented rule for recipients the sandbox cannot reach: their digits end in `0000`
 * (e.g. 15550000000, 447700900000). Sends to them are accepted with 200, then fail with 131026.
 */
export function isUndeliverable(recipientDigits: string): boolean {
  return recipientDigits.endsWith('0000');
}
