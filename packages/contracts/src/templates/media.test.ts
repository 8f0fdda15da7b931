import { describe, expect, it } from 'vitest';
import { checkMediaFile, documentNameError, MEDIA_RULES, mediaMimeType, sanitizeDocumentName } from './media';

const MB = 1024 * 1024;

describe('checkMediaFile (Meta caps)', () => {
  it('accepts Meta types within the caps', () => {
    expect(checkMediaFile({ format: 'IMAGE', mimeType: 'image/png', size: 5 * MB })).toBeNull();
    expect(checkMediaFile({ format: 'VIDEO', mimeType: 'video/mp4', size: 16 * MB })).toBeNull();
    expect(checkMediaFile({ format: 'DOCUMENT', mimeType: 'application/pdf', size: 100 * MB })).toBeNull();
  });

  it('answers 413 over the cap', () => {
    expect(checkMediaFile({ format: 'IMAGE', mimeType: 'image/jpeg', size: 5 * MB + 1 })).toEqual({
      status: 413,
      field: 'header_file',
      message: 'Image headers cannot exceed 5 MB',
    });
    expect(checkMediaFile({ format: 'VIDEO', mimeType: 'video/3gpp', size: 17 * MB })?.status).toBe(413);
    expect(checkMediaFile({ format: 'DOCUMENT', mimeType: 'text/plain', size: 101 * MB })?.status).toBe(413);
  });

  it('answers 400 for a wrong type or an empty file', () => {
    expect(checkMediaFile({ format: 'IMAGE', mimeType: 'image/gif', size: 10 })).toEqual({
      status: 400,
      field: 'header_file',
      message: 'Image headers must be JPEG or PNG files',
    });
    expect(checkMediaFile({ format: 'VIDEO', mimeType: 'video/webm', size: 10 })?.status).toBe(400);
    expect(checkMediaFile({ format: 'DOCUMENT', mimeType: 'application/zip', size: 10 })?.status).toBe(400);
    expect(checkMediaFile({ format: 'IMAGE', mimeType: 'image/png', size: 0 })?.message).toBe(
      'The header file is empty',
    );
  });

  it('falls back to the extension only when the MIME type says nothing', () => {
    expect(
      mediaMimeType({ format: 'DOCUMENT', mimeType: 'application/octet-stream', filename: 'a.DOCX' }),
    ).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(mediaMimeType({ format: 'IMAGE', filename: 'photo.jpg' })).toBe('image/jpeg');
    expect(mediaMimeType({ format: 'IMAGE', mimeType: 'image/PNG; charset=x' })).toBe('image/png');
    expect(mediaMimeType({ format: 'IMAGE', mimeType: 'image/gif', filename: 'x.png' })).toBeNull();
  });

  it('keeps the spec hints as text', () => {
    expect(MEDIA_RULES.IMAGE.hint).toBe('PNG, JPG, GIF up to 10MB');
    expect(MEDIA_RULES.VIDEO.hint).toBe('MP4, WebM, Ogg up to 16MB');
    expect(MEDIA_RULES.DOCUMENT.hint).toBe('PDF, DOC, DOCX up to 100MB');
  });
});

describe('document name', () => {
  it('strips the forbidden characters as typed', () => {
    expect(sanitizeDocumentName('inv/oice:*?"<>()!@#$%^&|2024.pdf')).toBe('invoice2024.pdf');
    expect(sanitizeDocumentName('Price list.pdf')).toBe('Price list.pdf');
  });

  it('requires a name without them', () => {
    expect(documentNameError('')).toBe('Document name is required');
    expect(documentNameError('a|b.pdf')).toBe('Cannot contain special characters like /:*?"<>|');
    expect(documentNameError('menu.pdf')).toBeNull();
  });
});
