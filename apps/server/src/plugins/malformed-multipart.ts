import { HttpError } from '../http-error';

// What busboy says of a body that is not well-formed multipart (no boundary, cut short): the client's fault.
const MALFORMED = [
  'Multipart: Boundary not found',
  'Unexpected end of multipart data',
  'terminated early due to unexpected end of multipart data',
  'Unsupported Content-Type.',
];

/**
 * The error to answer for one thrown while reading a multipart body's parts: busboy's parse errors (plain
 * Errors, which would surface as a 500) become a 400 naming `body`; anything else is returned as it is.
 */
export function malformedMultipartAsClientError(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof HttpError) return error;
  if ((error as { statusCode?: number }).statusCode !== undefined) return error;
  if (!MALFORMED.some((text) => error.message.includes(text))) return error;
  return HttpError.field(400, 'body', `The multipart body is malformed: ${error.message}`);
}
