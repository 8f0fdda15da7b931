import type { TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';

export type Part =
  { name: string; value: string } | { name: string; filename: string; content: string | Buffer };

/** A multipart/form-data body built by hand, so tests control part order, names and bytes exactly. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----herald-test-boundary-7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: text/csv`
        : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.from('filename' in part ? part.content : part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A signed-in user of a fresh business, with the headers every contacts call needs. */
export async function contactsUser(t: TestApp, email: string) {
  const user = await signedInUser(t, email, `Shop of ${email}`);
  const headers = { authorization: `Bearer ${user.accessToken}`, 'x-waba-id': user.business.waba_id };
  return { ...user, headers };
}

export function importCsv(
  t: TestApp,
  headers: Record<string, string>,
  csv: string | Buffer,
  options: { tag?: string; filename?: string; tagLast?: boolean } = {},
) {
  const tag = { name: 'tag', value: options.tag ?? 'customers' };
  const file = { name: 'file', filename: options.filename ?? 'contacts.csv', content: csv };
  const body = multipart(options.tagLast ? [file, tag] : [tag, file]);
  return t.app.inject({
    method: 'POST',
    url: '/recipient/import/',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}
