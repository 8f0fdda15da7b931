import { randomInt } from 'node:crypto';

/** A uniformly random PIN of `digits` digits (leading zeros allowed), from the CSPRNG. */
export function randomPin(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}
