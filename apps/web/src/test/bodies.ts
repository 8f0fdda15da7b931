/**
 * Reading what the app sent or saved, the same on every Node version. Under jsdom, Node 24's fetch makes its
 * Blobs and Files with the environment's (jsdom's) classes: a `response.blob()` has no text() and
 * `request.formData()` refuses a file part. These read bytes instead, which both Node 20 and 24 agree on.
 */

/** A Blob's text, whichever realm made it (jsdom's Blob has no text(): its FileReader reads it). */
export function blobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('FileReader failed'));
    reader.readAsText(blob);
  });
}

/** One part of a multipart/form-data body: its text, and for a file part its file name and type. */
export interface FormPart {
  text: string;
  size: number;
  filename?: string;
  type?: string;
}

/** A multipart/form-data request's parts by name, parsed from its bytes. */
export async function multipartOf(request: Request): Promise<Map<string, FormPart>> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(request.headers.get('content-type') ?? '');
  if (!boundary) throw new Error(`Not a multipart body: ${request.headers.get('content-type')}`);
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  // latin1 keeps one character per byte, so a file part's size is its bytes.
  const body = Buffer.from(await request.arrayBuffer()).toString('latin1');
  const parts = new Map<string, FormPart>();
  for (const chunk of body.split(delimiter).slice(1, -1)) {
    const headerEnd = chunk.indexOf('\r\n\r\n');
    const headers = chunk.slice(2, headerEnd);
    const content = chunk.slice(headerEnd + 4, -2);
    const name = /name="([^"]*)"/.exec(headers)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
    parts.set(name, {
      text: Buffer.from(content, 'latin1').toString('utf8'),
      size: content.length,
      ...(filename !== undefined ? { filename } : {}),
      ...(type !== undefined ? { type } : {}),
    });
  }
  return parts;
}
