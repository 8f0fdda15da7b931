import fc from 'fast-check';
import { PNG } from '../features/templates/templates-test-helpers';
import { type BodyBuilder, type FuzzContext, type GeneratedBody, mutatedExample } from './fuzz-requests';
import { HOSTILE_STRINGS, hostileRawBody, hostileValue, oddContentType } from './hostile-values';
import { schemaValue } from './schema-values';

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; content: string | Buffer };

const BOUNDARY = '----herald-fuzz-boundary-x7y8';

/** A multipart/form-data body built by hand, so part names, file names and bytes can be anything. */
function multipart(parts: Part[]): GeneratedBody {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'filename' in part
        ? `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}`
        : `Content-Disposition: form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${head}\r\n\r\n`));
    chunks.push(Buffer.from('filename' in part ? part.content : part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

const hostileText = fc.constantFrom(...HOSTILE_STRINGS);
const fileName = (plausible: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...plausible) },
    { weight: 1, arbitrary: hostileText.map((name) => name.slice(0, 300)) },
    { weight: 1, arbitrary: hostileText.map((name) => `${name.slice(0, 300)}${plausible[0]}`) },
  );

function csvCell(value: string): string {
  return /[",\n\r;]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV of a few rows: plausible cells (names, numbers, e-mails) with hostile ones mixed in. */
const csvFile: fc.Arbitrary<string | Buffer> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.shuffledSubarray(['name', 'number', 'email', 'age', 'gender', 'Loyalty Tier'], { minLength: 1 }),
        fc.array(
          fc.array(
            fc.oneof(
              {
                weight: 6,
                arbitrary: fc.constantFrom('Ann', '+14155550123', 'ann@example.com', '42', 'f', ''),
              },
              { weight: 1, arbitrary: hostileText },
            ),
            { minLength: 1, maxLength: 7 },
          ),
          { maxLength: 4 },
        ),
        fc.constantFrom('\n', '\r\n'),
      )
      .map(
        ([header, rows, end]) => [header, ...rows].map((row) => row.map(csvCell).join(',')).join(end) + end,
      ),
  },
  { weight: 1, arbitrary: hostileRawBody },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
);

/** A CSV the import accepts: the known columns and a few rows of valid, distinct numbers. */
const plausibleCsv: fc.Arbitrary<string> = fc
  .uniqueArray(fc.integer({ min: 1000, max: 9999 }), { minLength: 1, maxLength: 5 })
  .map((numbers) => `name,number,email\n${numbers.map((n) => `P${n},+1415555${n},p${n}@x.io`).join('\n')}\n`);

/** POST /recipient/import/: a tag and a CSV file, in either order, with plausible or hostile names. */
export const importBody: BodyBuilder = (_ctx, hostile) => {
  if (!hostile) {
    return fc
      .tuple(plausibleCsv, fc.constantFrom('customers', 'vip'), fc.boolean())
      .map(([csv, tag, tagLast]) => {
        const parts: Part[] = [
          { name: 'tag', value: tag },
          { name: 'file', filename: 'contacts.csv', type: 'text/csv', content: csv },
        ];
        return multipart(tagLast ? parts.reverse() : parts);
      });
  }
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({
          tag: fc.option(
            fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom('customers', ' vip ') },
              { weight: 1, arbitrary: hostileText },
            ),
            { freq: 6 },
          ),
          file: fc.option(
            fc.record({
              filename: fileName(['contacts.csv', 'x.CSV', 'x.txt']),
              content: fc.oneof(csvFile, plausibleCsv),
            }),
            { freq: 6 },
          ),
          tagLast: fc.boolean(),
        })
        .map(({ tag, file, tagLast }) => {
          const parts: Part[] = [];
          if (tag !== null) parts.push({ name: 'tag', value: tag });
          if (file !== null) {
            const filePart = {
              name: 'file',
              filename: file.filename,
              type: 'text/csv',
              content: file.content,
            };
            if (tagLast) parts.unshift(filePart);
            else parts.push(filePart);
          }
          return multipart(parts);
        }),
    },
    {
      weight: 1,
      arbitrary: oddContentType.map((type) => ({
        payload: 'name,number\nAnn,1',
        headers: { 'content-type': type },
      })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
};

const jsonPayload = (value: unknown): GeneratedBody => ({
  payload: JSON.stringify(value) ?? 'null',
  headers: { 'content-type': 'application/json' },
});

/** POST /meta/templates/ and PUT /meta/templates/{id}/: template_data (JSON or multipart) and a header file. */
export function templateBody(templatePayload: Record<string, unknown>, route: string): BodyBuilder {
  return (ctx: FuzzContext, hostile: boolean) => {
    const example = ctx.examples[route];
    if (!hostile && example) {
      return fc
        .tuple(example, fc.boolean())
        .map(([value, asPart]) =>
          asPart ? multipart([{ name: 'template_data', value: JSON.stringify(value) }]) : jsonPayload(value),
        );
    }
    const fromSchema = schemaValue(templatePayload, ctx.resolve, true);
    const payload = example ? fc.oneof(fromSchema, mutatedExample(example)) : fromSchema;
    const headerFile = fc.record({
      filename: fileName(['header.png', 'header.jpg', 'x.svg', 'x.pdf']),
      type: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'video/mp4'),
        },
        { weight: 1, arbitrary: fc.constantFrom('image/svg+xml', 'text/html', '', 'x'.repeat(300)) },
      ),
      content: fc.constantFrom<string | Buffer>(
        PNG,
        '<svg onload="alert(1)"/>',
        Buffer.alloc(0),
        'plain text',
      ),
    });
    return fc.oneof(
      { weight: 4, arbitrary: payload.map(jsonPayload) },
      {
        weight: 4,
        arbitrary: fc
          .record({
            data: fc.oneof(
              { weight: 5, arbitrary: payload.map((value) => JSON.stringify(value) ?? '') },
              { weight: 1, arbitrary: hostileRawBody },
            ),
            file: fc.option(headerFile, { freq: 3 }),
          })
          .map(({ data, file }) =>
            multipart([
              { name: 'template_data', value: data },
              ...(file ? [{ name: 'header_file', ...file }] : []),
            ]),
          ),
      },
      { weight: 1, arbitrary: hostileValue.map(jsonPayload) },
      {
        weight: 1,
        arbitrary: oddContentType.map((type) => ({
          payload: '{"name":"x"}',
          headers: { 'content-type': type },
        })),
      },
    );
  };
}
