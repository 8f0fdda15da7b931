import { MEDIA_RULES, mediaMimeType, type MediaHeaderFormat } from '@herald/contracts';

/**
 * What a file's first bytes say it is. Herald trusts neither the browser's content type nor the file name:
 * an SVG (which can carry script) named x.png and sent as image/png must not be stored and served as a PNG.
 */
type ContentKind = 'jpeg' | 'png' | 'iso-media' | 'pdf' | 'ole' | 'zip' | 'markup' | 'text' | 'unknown';

/** Each accepted MIME type (contracts' MEDIA_RULES) with the content it must have and its name in messages. */
const EXPECTED: Record<string, { kind: ContentKind; label: string }> = {
  'image/jpeg': { kind: 'jpeg', label: 'a JPEG image' },
  'image/jpg': { kind: 'jpeg', label: 'a JPEG image' },
  'image/png': { kind: 'png', label: 'a PNG image' },
  // MP4 and 3GPP are both ISO base media files (an `ftyp` box first); players take either brand.
  'video/mp4': { kind: 'iso-media', label: 'an MP4 video' },
  'video/3gpp': { kind: 'iso-media', label: 'a 3GPP video' },
  'application/pdf': { kind: 'pdf', label: 'a PDF document' },
  'application/msword': { kind: 'ole', label: 'a Word document' },
  'application/vnd.ms-excel': { kind: 'ole', label: 'an Excel workbook' },
  'application/vnd.ms-powerpoint': { kind: 'ole', label: 'a PowerPoint presentation' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    kind: 'zip',
    label: 'a Word document',
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    kind: 'zip',
    label: 'an Excel workbook',
  },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
    kind: 'zip',
    label: 'a PowerPoint presentation',
  },
  'text/plain': { kind: 'text', label: 'a text file' },
};

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** How much of a file is read to classify it: signatures sit at the start, markup tags near it. */
const HEAD_BYTES = 1024;
const TEXT_SAMPLE_BYTES = 64 * 1024;
/**
 * Markup a browser could run or render: HTML (WHATWG's sniffing signatures and the tags that carry script),
 * SVG and XML. Looked for in the first kilobyte, after any byte-order mark and white space.
 */
const MARKUP =
  /^\s*<(?:!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|svg|object|embed|!--|\?xml)[\s>/]|<(?:script|svg|iframe|html|object|embed)[\s>/]|<\?xml[\s]/i;

function classify(bytes: Uint8Array): ContentKind {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'iso-media';
  if (startsWith(bytes, ascii('%PDF-'))) return 'pdf';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, HEAD_BYTES))
    .replace(/^\uFEFF/, '');
  // UTF-16 markup (<\0s\0v\0g\0) reads as markup once its NULs are dropped.
  if (MARKUP.test(head) || MARKUP.test(head.replace(/\0/g, ''))) return 'markup';
  return isText(bytes.subarray(0, TEXT_SAMPLE_BYTES)) ? 'text' : 'unknown';
}

/** UTF-8 without NUL or other control bytes than tab, line feed, form feed and carriage return. */
function isText(sample: Uint8Array): boolean {
  for (const byte of sample) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

const FORMATS = Object.keys(MEDIA_RULES) as MediaHeaderFormat[];

/** The MIME type a file name's extension stands for (contracts' table), or null for any other name. */
function mimeOfName(filename: string): string | null {
  for (const format of FORMATS) {
    const mime = mediaMimeType({ format, mimeType: '', filename });
    if (mime !== null) return mime;
  }
  return null;
}

/** Meta's cap for a MIME type: the cap of the one header format that accepts it. */
function capOf(mime: string): number {
  const format = FORMATS.find((f) => MEDIA_RULES[f].mimeTypes.includes(mime));
  return format ? MEDIA_RULES[format].maxBytes : Infinity;
}

/**
 * Why an uploaded header file's bytes do not fit its declared content type or its name's extension, or
 * null. Markup (SVG, HTML, XML, script) is never accepted, whatever it is called. Types and names Herald
 * does not accept at all, empty files and files over their cap are left to the type and size checks, whose
 * messages say more.
 */
export function mediaContentProblem(file: { name: string; type: string; bytes: Uint8Array }): string | null {
  if (file.bytes.length === 0) return null;
  const declared = (file.type.split(';')[0] ?? '').trim().toLowerCase();
  const named = mimeOfName(file.name);
  const checks = [
    { mime: declared, what: 'type' },
    { mime: named, what: 'name' },
  ].filter((check): check is { mime: string; what: string } => check.mime !== null && check.mime in EXPECTED);
  if (checks.some((check) => file.bytes.length > capOf(check.mime))) return null;
  const kind = classify(file.bytes);
  for (const check of checks) {
    const expected = EXPECTED[check.mime]!;
    if (kind !== expected.kind) {
      return `header_file is not ${expected.label} (its content does not match its ${check.what})`;
    }
  }
  if (kind === 'markup') return 'header_file holds HTML, SVG or XML markup, which is never accepted as media';
  return null;
}
