import { currentAccessToken, recoverFromUnauthorized, sessionHeaders } from './base-query';
import type { SessionApi } from './base-query';

/** What the server answered: the status and the body (parsed JSON, else the text, else null). */
type UploadAnswer = { status: number; data: unknown };

type UploadOptions = {
  /** Same-origin path, e.g. '/recipient/import/'. */
  url: string;
  /** Sent again as it is when the request is repeated after a refresh. */
  body: FormData;
  session: SessionApi;
  /** The share of the body sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
};

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendOnce({ url, body, session, onProgress, signal }: UploadOptions): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(sessionHeaders(session.getState))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, data: parseBody(xhr.responseText) });
    xhr.onerror = () => reject(new Error('Network error during upload'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/**
 * A multipart POST through XMLHttpRequest, because fetch reports no upload progress. It behaves like the
 * app's base query: the same session headers, and on a 401 the same refresh-once-then-repeat.
 * Rejects only when nothing was answered (network failure, abort).
 */
export async function uploadWithProgress(options: UploadOptions): Promise<UploadAnswer> {
  const sentWith = currentAccessToken(options.session.getState);
  const answer = await sendOnce(options);
  if (answer.status !== 401) return answer;
  if (!(await recoverFromUnauthorized(options.session, sentWith))) return answer;
  options.onProgress?.(0);
  return sendOnce(options);
}
