import { type MediaHeaderFormat, TEMPLATE_MESSAGES } from './constants';

const MB = 1024 * 1024;

export interface MediaRule {
  /** Meta's accepted MIME types for the header (Meta's Cloud API documentation). */
  mimeTypes: readonly string[];
  /** File-name extensions accepted when the browser sends no useful MIME type. */
  extensions: readonly string[];
  /** Meta's size cap in bytes, enforced by the server. */
  maxBytes: number;
  /** The spec's UI hint, shown as text only. */
  hint: string;
  typeMessage: string;
  sizeMessage: string;
}

/** Header media: Meta's types and caps (Meta's Cloud API documentation) with the spec's hints. */
export const MEDIA_RULES: Record<MediaHeaderFormat, MediaRule> = {
  IMAGE: {
    mimeTypes: ['image/jpeg', 'image/jpg', 'image/png'],
    extensions: ['.jpg', '.jpeg', '.png'],
    maxBytes: 5 * MB,
    hint: 'PNG, JPG, GIF up to 10MB',
    typeMessage: 'Image headers must be JPEG or PNG files',
    sizeMessage: 'Image headers cannot exceed 5 MB',
  },
  VIDEO: {
    mimeTypes: ['video/mp4', 'video/3gpp'],
    extensions: ['.mp4', '.3gp', '.3gpp'],
    maxBytes: 16 * MB,
    hint: 'MP4, WebM, Ogg up to 16MB',
    typeMessage: 'Video headers must be MP4 or 3GPP files',
    sizeMessage: 'Video headers cannot exceed 16 MB',
  },
  DOCUMENT: {
    mimeTypes: [
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'text/plain',
    ],
    extensions: ['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.txt'],
    maxBytes: 100 * MB,
    hint: 'PDF, DOC, DOCX up to 100MB',
    typeMessage: 'Document headers must be PDF, Word, Excel, PowerPoint or text files',
    sizeMessage: 'Document headers cannot exceed 100 MB',
  },
};

/** The upload area's `accept` attribute. */
export const MEDIA_ACCEPT = 'image/*,video/*,.pdf,.doc,.docx,.txt';

export const EMPTY_FILE_MESSAGE = 'The header file is empty';

export interface MediaFileInfo {
  format: MediaHeaderFormat;
  /** As sent by the client (parameters such as '; charset=' are ignored). */
  mimeType?: string | undefined;
  filename?: string | undefined;
  size: number;
}

export interface MediaFileProblem {
  /** 413 for a file over Meta's cap, 400 for a wrong type or an empty file. */
  status: 400 | 413;
  field: 'header_file';
  message: string;
}

const GENERIC_MIME = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

/** The MIME type to declare to the resumable upload: the sent one when accepted, else the extension's. */
export function mediaMimeType(file: Omit<MediaFileInfo, 'size'>): string | null {
  const rule = MEDIA_RULES[file.format];
  const mime = ((file.mimeType ?? '').split(';')[0] ?? '').trim().toLowerCase();
  if (rule.mimeTypes.includes(mime)) return mime;
  if (!GENERIC_MIME.has(mime)) return null;
  const ext = extensionOf(file.filename ?? '');
  if (!rule.extensions.includes(ext)) return null;
  return EXTENSION_MIME[ext] ?? null;
}

const EXTENSION_MIME: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.3gp': 'video/3gpp',
  '.3gpp': 'video/3gpp',
  '.pdf': 'application/pdf',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.ppt': 'application/vnd.ms-powerpoint',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.txt': 'text/plain',
};

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot).toLowerCase();
}

/** The server's check of an uploaded header file (413/400 with a clear message); null when fine. */
export function checkMediaFile(file: MediaFileInfo): MediaFileProblem | null {
  const rule = MEDIA_RULES[file.format];
  if (mediaMimeType(file) === null) return { status: 400, field: 'header_file', message: rule.typeMessage };
  if (!(file.size > 0)) return { status: 400, field: 'header_file', message: EMPTY_FILE_MESSAGE };
  if (file.size > rule.maxBytes) return { status: 413, field: 'header_file', message: rule.sizeMessage };
  return null;
}

/** These characters are stripped from the document name as typed. */
export const DOCUMENT_NAME_FORBIDDEN = /[/:*?"<>()!@#$%^&|]/g;

/** Media: the document name without / : * ? " < > ( ) ! @ # $ % ^ & |. */
export function sanitizeDocumentName(typed: string): string {
  return typed.replace(DOCUMENT_NAME_FORBIDDEN, '');
}

/** The message for a document name, or null: required, and none of the stripped characters. */
export function documentNameError(name: string): string | null {
  if (name.trim().length === 0) return TEMPLATE_MESSAGES.documentNameRequired;
  return sanitizeDocumentName(name) === name ? null : TEMPLATE_MESSAGES.documentNameHint;
}
