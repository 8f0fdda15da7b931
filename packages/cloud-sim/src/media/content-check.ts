import { GraphError, invalidParameter } from '../errors';

/**
 * Meta looks at an uploaded file's bytes, not only at the type it is told: the sandbox does too, so a client
 * that sends an SVG or an HTML page as image/png sees the refusal it would see in production. The sandbox
 * keeps its own signatures (it stands for Meta, whose rules Herald must not be able to share by accident).
 */
const SIGNATURES: Record<string, { bytes: number[]; at?: number }> = {
  'image/jpeg': { bytes: [0xff, 0xd8, 0xff] },
  'image/jpg': { bytes: [0xff, 0xd8, 0xff] },
  'image/png': { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  // ISO base media files (MP4, 3GPP) open with an `ftyp` box: its type sits after the 4-byte size.
  'video/mp4': { bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
  'video/3gpp': { bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
  'application/pdf': { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
};

/** Bytes of a file's start enough for every signature above. */
export const CONTENT_HEAD_BYTES = 8;

/** Whether a file starting with `head` is of `type`; true for a type the sandbox has no signature for. */
export function contentMatches(type: string, head: Uint8Array): boolean {
  const signature = SIGNATURES[type];
  if (!signature) return true;
  const at = signature.at ?? 0;
  return signature.bytes.every((byte, i) => head[at + i] === byte);
}

/** `POST /{phone-number-id}/media` with bytes that are not its `type`: Meta's 131053. */
export function mediaUploadError(type: string): GraphError {
  return new GraphError(400, 131053, '(#131053) Media upload error', {
    details: `The uploaded file's content is not ${type}: its bytes do not match the declared type.`,
  });
}

/** A resumable upload whose bytes are not its session's `file_type`: a bad parameter, as for any upload field. */
export function uploadContentMismatch(type: string): GraphError {
  return invalidParameter(`the file's content is not ${type}: its bytes do not match file_type`);
}
