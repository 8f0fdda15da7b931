import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COUNTRY_MESSAGE } from '@herald/contracts';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { contactsUser, importCsv, multipart, type Part } from './contacts-test-helpers';
import { UNREADABLE_TEXT_RULE } from './import-rows';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;

async function names(headers: Headers): Promise<Record<string, string>> {
  const response = await t.app.inject({ method: 'GET', url: '/recipient/create/?page_size=100', headers });
  const list = response.json() as { results: Array<{ recipient_name: string; whatsapp_number: string }> };
  return Object.fromEntries(list.results.map((c) => [c.whatsapp_number, c.recipient_name]));
}

/** Windows-1252 bytes, as Excel's 'CSV (Comma delimited)' writes them on a Western Windows. */
function windows1252(text: string): Buffer {
  const special: Record<string, number> = { '€': 0x80, '“': 0x93, '”': 0x94, Œ: 0x8c };
  return Buffer.from(
    [...text].map((c) => {
      const code = special[c] ?? c.charCodeAt(0);
      if (code > 0xff) throw new Error(`${c} is not in Windows-1252`);
      return code;
    }),
  );
}

const CSV = 'name,number\nJosé Müller,+14155550101\nZoë “Zo” Œuvre € 5,+14155550102\n';
const STORED = { '+14155550101': 'José Müller', '+14155550102': 'Zoë “Zo” Œuvre € 5' };

function send(headers: Headers, parts: Part[]) {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/recipient/import/',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

describe('POST /recipient/import/ reads the encoding the file was saved in', () => {
  it.each([
    ['Windows-1252 (Excel: CSV (Comma delimited))', windows1252(CSV)],
    ['UTF-8 with a byte-order mark (Excel: CSV UTF-8)', Buffer.from(`\uFEFF${CSV}`, 'utf8')],
    ['UTF-8 without a mark', Buffer.from(CSV, 'utf8')],
    ['UTF-16 LE with a mark (Excel: Unicode Text)', Buffer.from(`\uFEFF${CSV}`, 'utf16le')],
    ['UTF-16 BE with a mark', Buffer.from(`\uFEFF${CSV}`, 'utf16le').swap16()],
  ])('stores the names of a %s file as written', async (label, bytes) => {
    const { headers } = await contactsUser(t, `enc-${label.slice(0, 12).replace(/\W/g, '')}@acme.test`);
    const response = await importCsv(t, headers, bytes);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ created: 2 });
    expect(await names(headers)).toEqual(STORED);
  });

  it('reads a Windows-1252 file whose first accented letter comes far down (after the first chunks)', async () => {
    const { headers } = await contactsUser(t, 'enc-late@acme.test');
    let csv = 'name,number\n';
    for (let i = 0; i < 3_000; i += 1) csv += `Person ${i},+1415${3_000_000 + i}\n`;
    csv += 'José,+14155550199\n';
    const bytes = windows1252(csv);
    expect(bytes.length).toBeGreaterThan(65_536);
    const response = await importCsv(t, headers, bytes);
    expect(response.statusCode).toBe(201);
    const search = await t.app.inject({
      method: 'GET',
      url: '/recipient/create/?search=%2B14155550199',
      headers,
    });
    expect(search.json().results[0].recipient_name).toBe('José');
  });

  it('refuses a file that mixes encodings, naming the row that cannot be read; stores nothing', async () => {
    const { headers } = await contactsUser(t, 'enc-mixed@acme.test');
    const bytes = Buffer.concat([
      Buffer.from('name,number\nZoë,+14155550101\n', 'utf8'),
      windows1252('José,+14155550102\nAna,+14155550103\n'),
    ]);
    const response = await importCsv(t, headers, bytes);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: '1 row is invalid; nothing was imported',
      message: { errors: [{ row: 3, errors: [`name ${UNREADABLE_TEXT_RULE}`] }] },
    });
    expect(await names(headers)).toEqual({});
    // A UTF-8 file that holds U+FFFD itself (a damaged earlier conversion) is refused the same way.
    const damaged = await importCsv(t, headers, 'name,number\nAna,+14155550103\nJos\uFFFD,+14155550102\n');
    expect(damaged.json().message.errors).toEqual([{ row: 3, errors: [`name ${UNREADABLE_TEXT_RULE}`] }]);
    const rows = await t.db.pool.query(`select count(*)::int as n from contacts where name like '%\uFFFD%'`);
    expect(rows.rows[0].n).toBe(0);
  });
});

describe('POST /recipient/import/ default_country (national numbers)', () => {
  const csv = 'name,number\nLena,0151 12340016\nAna,+44 7911 123456\n';
  const file = { name: 'file', filename: 'contacts.csv', content: csv };
  const tag = { name: 'tag', value: 'national' };

  it('reads numbers without a country code in the default country; others as written', async () => {
    const { headers } = await contactsUser(t, 'country@acme.test');
    const response = await send(headers, [tag, { name: 'default_country', value: 'de' }, file]);
    expect(response.statusCode).toBe(201);
    expect(await names(headers)).toEqual({ '+4915112340016': 'Lena', '+447911123456': 'Ana' });
  });

  it('refuses a national number without a default country, naming the row', async () => {
    const { headers } = await contactsUser(t, 'country-none@acme.test');
    const response = await send(headers, [tag, file]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toEqual([
      { row: 2, errors: [expect.stringContaining("number '0151 12340016' is not valid")] },
    ]);
  });

  it('answers 400 naming default_country when it is no ISO country or comes after the file', async () => {
    const { headers } = await contactsUser(t, 'country-bad@acme.test');
    for (const value of ['XX', 'Germany', '', '49']) {
      const response = await send(headers, [tag, { name: 'default_country', value }, file]);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'default_country', message: DEFAULT_COUNTRY_MESSAGE },
      ]);
    }
    const late = await send(headers, [tag, file, { name: 'default_country', value: 'DE' }]);
    expect(late.statusCode).toBe(400);
    expect(late.json().errors).toEqual([
      { field: 'default_country', message: 'default_country must be sent before the file' },
    ]);
    expect(await names(headers)).toEqual({});
  });
});
