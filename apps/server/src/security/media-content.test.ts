import { describe, expect, it } from 'vitest';
import { mediaContentProblem } from './media-content';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42\0\0\0\0isommp42')]);
const GPP = Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftyp3gp4\0\0\0\0isom')]);
const PDF = Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);
const BARE_SVG = Buffer.from('<svg onload="alert(1)" xmlns="http://www.w3.org/2000/svg"/>');
const HTML = Buffer.from('  <!DOCTYPE html><html><body><script>alert(1)</script></body></html>');

const check = (name: string, type: string, bytes: Buffer) => mediaContentProblem({ name, type, bytes });

describe('mediaContentProblem', () => {
  it.each([
    ['x.png', 'image/png', PNG],
    ['x.jpg', 'image/jpeg', JPEG],
    ['x.jpeg', 'image/jpg', JPEG],
    ['clip.mp4', 'video/mp4', MP4],
    ['clip.3gp', 'video/3gpp', GPP],
    ['terms.pdf', 'application/pdf', PDF],
    ['terms.pdf', 'application/octet-stream', PDF],
    ['letter.doc', 'application/msword', OLE],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ZIP],
    ['notes.txt', 'text/plain; charset=utf-8', Buffer.from('Opening hours: 9–17 <3\r\n')],
  ])('accepts %s sent as %s whose bytes are what it says', (name, type, bytes) => {
    expect(check(name, type, bytes)).toBeNull();
  });

  it('refuses an SVG named x.png and sent as image/png, naming header_file', () => {
    expect(check('x.png', 'image/png', SVG)).toBe(
      'header_file is not a PNG image (its content does not match its type)',
    );
    expect(check('x.png', 'image/png', BARE_SVG)).toBe(
      'header_file is not a PNG image (its content does not match its type)',
    );
  });

  it('refuses bytes of another accepted type, by type and by name', () => {
    expect(check('x.jpg', 'image/jpeg', PNG)).toBe(
      'header_file is not a JPEG image (its content does not match its type)',
    );
    expect(check('x.png', 'image/jpeg', JPEG)).toBe(
      'header_file is not a PNG image (its content does not match its name)',
    );
    expect(check('terms.pdf', 'application/octet-stream', HTML)).toBe(
      'header_file is not a PDF document (its content does not match its name)',
    );
    expect(check('clip.mp4', 'video/mp4', PNG)).toBe(
      'header_file is not an MP4 video (its content does not match its type)',
    );
  });

  it('refuses HTML, SVG and script sent as text, and markup under any type Herald does not take', () => {
    expect(check('notes.txt', 'text/plain', HTML)).toBe(
      'header_file is not a text file (its content does not match its type)',
    );
    expect(
      check('notes.txt', 'text/plain', Buffer.from('Hello\n<script src="//evil.test/x.js"></script>')),
    ).toBe('header_file is not a text file (its content does not match its type)');
    expect(check('logo.svg', 'image/svg+xml', SVG)).toBe(
      'header_file holds HTML, SVG or XML markup, which is never accepted as media',
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(BARE_SVG.toString(), 'utf16le')]);
    expect(check('logo', 'application/octet-stream', utf16)).toBe(
      'header_file holds HTML, SVG or XML markup, which is never accepted as media',
    );
  });

  it('refuses binary bytes sent as text', () => {
    expect(check('notes.txt', 'text/plain', Buffer.from([0x48, 0x69, 0x00, 0x00, 0x01]))).toBe(
      'header_file is not a text file (its content does not match its type)',
    );
  });

  it('leaves empty files, files over their cap and types Herald does not take to the other checks', () => {
    expect(check('x.png', 'image/png', Buffer.alloc(0))).toBeNull();
    expect(check('huge.png', 'image/png', Buffer.alloc(5 * 1024 * 1024 + 1))).toBeNull();
    expect(check('anim.gif', 'image/gif', Buffer.from('GIF89a'))).toBeNull();
  });
});
