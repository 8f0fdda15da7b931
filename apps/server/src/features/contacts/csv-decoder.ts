// Reading an uploaded CSV in whatever encoding the spreadsheet saved it, as UTF-8 for the parser.
import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/** The encodings an import is read in; the name is TextDecoder's label. */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** U+FFFD: what a decoder puts where bytes were no character. Never stored (the row is refused). */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Turns the upload's bytes into UTF-8 bytes, chunk by chunk, choosing the encoding from what it sees.
 *
 * A byte-order mark says the encoding (UTF-8, UTF-16 LE or BE). Without one the file is read as UTF-8 (what
 * 'CSV UTF-8' and most tools write) until a byte that cannot be UTF-8 arrives: if every byte before it was
 * ASCII, the same in both, the file is Windows-1252 (Excel's 'CSV (Comma delimited)' on Western Windows), so
 * 'José' saved there reads as 'José' and not 'Jos�'. A file that is not UTF-8 after some UTF-8 letters mixes
 * encodings: the rest is decoded with U+FFFD where bytes make no character, and the row holding one is
 * refused by name (validateRow), so nothing unreadable is ever stored.
 *
 * While the file is UTF-8 its bytes go through unchanged (only checked), so the common case costs one scan.
 */
export class CsvDecoder {
  private encodingName: CsvEncoding = 'utf-8';
  /** Set once bytes must be converted (not UTF-8, or mixed); until then UTF-8 goes through as it came. */
  private text: TextDecoder | null = null;
  /** Bytes held back: the file's first ones until a mark can be seen, or a character split by a chunk. */
  private held: Buffer = Buffer.alloc(0);
  private started = false;
  private onlyAscii = true;

  get encoding(): CsvEncoding {
    return this.encodingName;
  }

  /** The UTF-8 bytes for the next chunk of the upload (possibly empty while bytes are held back). */
  write(chunk: Buffer): Buffer {
    if (this.text) return Buffer.from(this.text.decode(chunk, { stream: true }), 'utf8');
    const bytes = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    if (!this.started) {
      if (bytes.length < 3) {
        this.held = Buffer.from(bytes);
        return Buffer.alloc(0);
      }
      return this.start(bytes);
    }
    return this.utf8(bytes);
  }

  /** What is still held at the end of the file. */
  end(): Buffer {
    if (this.text) return Buffer.from(this.text.decode(), 'utf8');
    const rest = this.held;
    this.held = Buffer.alloc(0);
    if (!this.started) return rest.length ? this.start(rest, true) : rest;
    // A character cut off by the end: in an all-ASCII file so far, a Windows-1252 letter ('José' at the end).
    return rest.length ? this.notUtf8(rest, true) : rest;
  }

  /** The first bytes: a byte-order mark, if any, picks the encoding. */
  private start(bytes: Buffer, last = false): Buffer {
    this.started = true;
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return this.convert('utf-16le', bytes, last);
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return this.convert('utf-16be', bytes, last);
    // A UTF-8 mark declares UTF-8: its bytes are not ASCII, so no switch to Windows-1252 can follow.
    return last ? this.notUtf8OrSame(bytes) : this.utf8(bytes);
  }

  /** Checks UTF-8 and passes it on, holding back a character the chunk splits. */
  private utf8(bytes: Buffer): Buffer {
    const whole = completeLength(bytes);
    const body = whole === bytes.length ? bytes : bytes.subarray(0, whole);
    if (!isUtf8(body)) return this.notUtf8(bytes);
    if (whole < bytes.length) this.held = Buffer.from(bytes.subarray(whole));
    if (this.onlyAscii && !isAscii(body)) this.onlyAscii = false;
    return body;
  }

  private notUtf8OrSame(bytes: Buffer): Buffer {
    return isUtf8(bytes) ? bytes : this.notUtf8(bytes, true);
  }

  private notUtf8(bytes: Buffer, last = false): Buffer {
    if (this.onlyAscii && !startsWithUtf8Letter(bytes)) return this.convert('windows-1252', bytes, last);
    // Mixed: carry on in UTF-8, with U+FFFD wherever bytes make no character.
    this.text = new TextDecoder('utf-8', { ignoreBOM: true });
    return this.decodeRest(bytes, last);
  }

  private convert(encoding: CsvEncoding, bytes: Buffer, last: boolean): Buffer {
    this.encodingName = encoding;
    // The mark is dropped here (TextDecoder's default); the parser then sees plain UTF-8.
    this.text = new TextDecoder(encoding);
    return this.decodeRest(bytes, last);
  }

  private decodeRest(bytes: Buffer, last: boolean): Buffer {
    return Buffer.from(this.text!.decode(bytes, { stream: !last }), 'utf8');
  }
}

/** How many of the bytes end on a whole UTF-8 character: a lead byte whose sequence goes past the end is cut. */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]!;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return back < length ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

/** Whether the first non-ASCII bytes are a UTF-8 character ('ë' before a Windows-1252 'é'). */
function startsWithUtf8Letter(bytes: Buffer): boolean {
  const at = bytes.findIndex((byte) => byte > 0x7f);
  if (at < 0) return false;
  const lead = bytes[at]!;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return at + length <= bytes.length && isUtf8(bytes.subarray(at, at + length));
}
