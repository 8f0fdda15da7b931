import type { SecretBox } from './secret-box';

const PURPOSE = 'tracked-link';

/** The tracked button of a test send: no recipient behind it, so it opens a page saying what a broadcast does. */
export const TEST_LINK_TOKEN = 'test';
const SIGNATURE_LENGTH = 16;

/**
 * One recipient's tracked-link token: their message row's key, signed. Nothing is stored to hand it out, and a
 * token Herald did not make (or one for another account's message) is refused before the database is asked.
 * Base-36 ids and base64url keep it short and safe in a URL path: `{account}.{message}.{signature}`.
 */
export function linkToken(box: SecretBox, accountId: number, messageId: number): string {
  const body = `${accountId.toString(36)}.${messageId.toString(36)}`;
  return `${body}.${box.mac(PURPOSE, body).slice(0, SIGNATURE_LENGTH)}`;
}

/** The message a token names, or null when it is not one of Herald's. */
export function readLinkToken(
  box: SecretBox,
  token: string,
): { accountId: number; messageId: number } | null {
  const match = /^([0-9a-z]{1,12})\.([0-9a-z]{1,13})\.([A-Za-z0-9_-]{16})$/.exec(token);
  if (!match) return null;
  const [, account, message, signature] = match;
  if (!box.verifyMac(PURPOSE, `${account}.${message}`, signature!)) return null;
  const accountId = Number.parseInt(account!, 36);
  const messageId = Number.parseInt(message!, 36);
  if (!Number.isSafeInteger(accountId) || !Number.isSafeInteger(messageId)) return null;
  return { accountId, messageId };
}
