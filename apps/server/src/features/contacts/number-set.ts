/**
 * The phone numbers an import has to tell apart — those the account already has, and those an earlier row
 * of the same file brought — with one mark each, for a million numbers in about 20 MB.
 *
 * An E.164 number is '+' and at most 15 digits, so its digits are an exact integer in a double (2^53 is
 * 16 digits). The keys live in an open-addressing table of doubles (0 = empty slot; no number is 0), the
 * marks beside them in bytes: a `Set<string>` of a million numbers takes several times that memory and keeps
 * the garbage collector busy for the whole import.
 */
export class NumberSet {
  private keys: Float64Array;
  private marks: Uint8Array;
  private size = 0;

  constructor(capacity = 1 << 16) {
    this.keys = new Float64Array(capacity);
    this.marks = new Uint8Array(capacity);
  }

  get count(): number {
    return this.size;
  }

  /** The mark of a number (its digits as an integer), or 0 when the set does not hold it. */
  get(key: number): number {
    const slot = this.find(key);
    return this.keys[slot] === key ? this.marks[slot]! : 0;
  }

  /** Adds the number or replaces its mark; marks are 1 to 255. */
  set(key: number, mark: number): void {
    let slot = this.find(key);
    if (this.keys[slot] !== key) {
      if ((this.size + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.find(key);
      }
      this.keys[slot] = key;
      this.size += 1;
    }
    this.marks[slot] = mark;
  }

  /** The slot holding the key, or the empty slot where it would go (linear probing). */
  private find(key: number): number {
    const mask = this.keys.length - 1;
    // Mixes both 32-bit halves of the integer (a number's low digits alone would cluster).
    let slot =
      (Math.imul((key % 4_294_967_296) | 0, 0x9e3779b1) ^ Math.imul((key / 4_294_967_296) | 0, 0x85ebca6b)) &
      mask;
    for (;;) {
      const found = this.keys[slot];
      if (found === key || found === 0) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const { keys, marks } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.marks = new Uint8Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i += 1) {
      if (keys[i] !== 0) this.set(keys[i]!, marks[i]!);
    }
  }
}

/** '+14155550123' → 14155550123: the key of an E.164 number in a NumberSet. */
export function numberKey(e164: string): number {
  return Number(e164.slice(1));
}

/**
 * Adds every number of a COPY … TO STDOUT of E.164 numbers (one per line) to the set, reading the digits
 * straight from the bytes: no string per number.
 */
export class NumberLineReader {
  private value = 0;

  constructor(
    private readonly set: NumberSet,
    private readonly mark: number,
  ) {}

  push(chunk: Buffer): void {
    let value = this.value;
    for (let i = 0; i < chunk.length; i += 1) {
      const byte = chunk[i]!;
      if (byte === 10) {
        if (value > 0) this.set.set(value, this.mark);
        value = 0;
      } else if (byte >= 48 && byte <= 57) value = value * 10 + (byte - 48);
    }
    this.value = value;
  }
}
