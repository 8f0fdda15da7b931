import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** Graph object ids are numeric strings that never start with 0 (e.g. "106540352242922"). */
export function randomNumericId(digits = 15): string {
  let out = String(randomInt(1, 10));
  for (let i = 1; i < digits; i++) out += String(randomInt(10));
  return out;
}
