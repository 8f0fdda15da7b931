import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { contactsUser, importCsv, multipart } from './contacts-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;

const HEADER = 'name,number,age,gender,address,post_code,email\n';

async function contactsOf(headers: Headers, search = '') {
  const response = await t.app.inject({
    method: 'GET',
    url: `/recipient/create/?page_size=100${search ? `&search=${encodeURIComponent(search)}` : ''}`,
    headers,
  });
  return response.json() as {
    count: number;
    results: Array<Record<string, unknown> & { recipient_name: string; tags: Array<{ tag_name: string }> }>;
  };
}

async function tableCounts() {
  const { rows } = await t.db.pool.query<{ contacts: number; tags: number; links: number; columns: number }>(
    `select (select count(*) from contacts)::int as contacts, (select count(*) from tags)::int as tags,
            (select count(*) from contact_tags)::int as links, (select count(*) from contact_columns)::int as columns`,
  );
  return rows[0]!;
}

function goodRows(count: number, start = 0): string {
  let text = '';
  for (let i = start; i < start + count; i += 1) {
    text += `Person ${i},+1415${2_000_000 + i},${20 + (i % 50)},female,"${i} Main St, Springfield",${10_000 + i},p${i}@example.com\n`;
  }
  return text;
}

describe('POST /recipient/import/', () => {
  it('imports every row with the tag and answers 201 {created, updated, total, duplicates_in_file}', async () => {
    const { headers } = await contactsUser(t, 'import@acme.test');
    const response = await importCsv(t, headers, HEADER + goodRows(3), { tag: '  Spring Sale ' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ created: 3, updated: 0, total: 3, duplicates_in_file: 0 });
    const list = await contactsOf(headers);
    expect(list.count).toBe(3);
    expect(list.results.find((c) => c.recipient_name === 'Person 1')).toEqual({
      id: expect.any(Number),
      recipient_name: 'Person 1',
      whatsapp_number: '+14152000001',
      recipient_age: 21,
      recipient_gender: 'female',
      recipient_address: '1 Main St, Springfield',
      recipient_post_code: '10001',
      recipient_email: 'p1@example.com',
      tags: [{ id: expect.any(Number), tag_name: 'Spring Sale' }],
      attributes: {},
      opted_out_at: null,
    });
  });

  it('re-imports: updates existing contacts, adds the new tag, keeps columns the file lacks', async () => {
    const { headers } = await contactsUser(t, 'reimport@acme.test');
    await importCsv(t, headers, HEADER + goodRows(5), { tag: 'first' });
    const again = await importCsv(
      t,
      headers,
      'name,number\nRenamed 0,+14152000000\nPerson 1,+14152000001\nNew One,+14152000099\n',
      { tag: 'second' },
    );
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ created: 1, updated: 2, total: 3, duplicates_in_file: 0 });
    const list = await contactsOf(headers);
    expect(list.count).toBe(6);
    const renamed = list.results.find((c) => c.whatsapp_number === '+14152000000')!;
    expect(renamed).toMatchObject({
      recipient_name: 'Renamed 0',
      recipient_age: 20,
      recipient_email: 'p0@example.com',
    });
    expect(renamed.tags.map((tag) => tag.tag_name)).toEqual(['first', 'second']);
    const untouched = list.results.find((c) => c.whatsapp_number === '+14152000004')!;
    expect(untouched.tags.map((tag) => tag.tag_name)).toEqual(['first']);

    // The same file twice: every row an update (none rewritten), the tag already there.
    const same = await importCsv(t, headers, HEADER + goodRows(5), { tag: 'first' });
    expect(same.json()).toEqual({ created: 0, updated: 5, total: 5, duplicates_in_file: 0 });
    expect((await contactsOf(headers)).count).toBe(6);
  });

  it('reads the tag whether it comes before or after the file', async () => {
    const { headers } = await contactsUser(t, 'tag-last@acme.test');
    const response = await importCsv(t, headers, HEADER + goodRows(2), { tag: 'late', tagLast: true });
    expect(response.statusCode).toBe(201);
    const list = await contactsOf(headers);
    expect(list.results.every((c) => c.tags[0]?.tag_name === 'late')).toBe(true);
  });

  it('lets the last row win when a number repeats, and reports the repeats', async () => {
    const { headers } = await contactsUser(t, 'dups@acme.test');
    const csv =
      'name,number\nFirst,+14155550300\nOther,+14155550301\nSecond,14155550300\nThird,+1 415 555 0300\n';
    const response = await importCsv(t, headers, csv);
    expect(response.json()).toEqual({ created: 2, updated: 0, total: 4, duplicates_in_file: 2 });
    const list = await contactsOf(headers);
    expect(list.count).toBe(2);
    expect(list.results.find((c) => c.whatsapp_number === '+14155550300')!.recipient_name).toBe('Third');
  });

  it('counts repeats across chunks of a large file, the last row still winning', async () => {
    const { headers } = await contactsUser(t, 'dups-big@acme.test');
    const csv = `${HEADER}${goodRows(30_000)}Early Twin,+14152000005\nLate Twin,+14152000005\n${goodRows(1, 29_999)}`;
    const response = await importCsv(t, headers, csv);
    expect(response.json()).toEqual({ created: 30_000, updated: 0, total: 30_003, duplicates_in_file: 3 });
    const [twin] = (await contactsOf(headers, '+14152000005')).results;
    expect(twin!.recipient_name).toBe('Late Twin');
  });

  it('mixes stored numbers, new ones and repeats of both across chunks: each row lands once, the last wins', async () => {
    const { headers } = await contactsUser(t, 'mixed@acme.test');
    await importCsv(t, headers, HEADER + goodRows(10), { tag: 'old' });
    const stored = await contactsOf(headers, '+14152000003');
    await t.app.inject({ method: 'DELETE', url: `/recipient/${stored.results[0]!.id}/`, headers });
    const csv =
      `${HEADER}Renamed 2,+14152000002\n${goodRows(30_000)}` +
      'Late 20000,+14152020000\nLate 7,+1 415 200 0007\n';
    const response = await importCsv(t, headers, csv, { tag: 'new' });
    // 9 stored numbers (0–9 but 3, deleted) are updates; 3 rows repeat a number seen earlier in the file.
    expect(response.json()).toEqual({ created: 29_991, updated: 9, total: 30_003, duplicates_in_file: 3 });
    const named = async (number: string) => (await contactsOf(headers, number)).results;
    expect((await named('+14152000002'))[0]!.recipient_name).toBe('Person 2');
    expect((await named('+14152020000'))[0]!.recipient_name).toBe('Late 20000');
    const [seven] = await named('+14152000007');
    expect(seven!.recipient_name).toBe('Late 7');
    expect(seven!.tags.map((tag) => tag.tag_name)).toEqual(['new', 'old']);
    expect((await named('+14152000003'))[0]!.tags.map((tag) => tag.tag_name)).toEqual(['new']);
    expect((await contactsOf(headers)).count).toBe(30_000);
    const tags = (await t.app.inject({ method: 'GET', url: '/recipient/tags/', headers })).json();
    expect(tags).toEqual([
      { id: expect.any(Number), name: 'new', count: 30_000 },
      { id: expect.any(Number), name: 'old', count: 9 },
    ]);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `select count(*)::int as n from contacts c join waba_accounts a on a.id = c.waba_account_id
        where a.waba_id = $1`,
      [headers['x-waba-id']],
    );
    expect(rows[0]!.n).toBe(30_000);
  });

  it('removes the tag links of deleted contacts, and the contacts and links of a deleted account', async () => {
    const { headers } = await contactsUser(t, 'unlink@acme.test');
    await importCsv(t, headers, HEADER + goodRows(3, 500), { tag: 'gone soon' });
    const linksOf = async () => {
      const { rows } = await t.db.pool.query<{ n: number }>(
        `select count(*)::int as n from contact_tags ct join tags g on g.id = ct.tag_id
           join waba_accounts a on a.id = g.waba_account_id where a.waba_id = $1`,
        [headers['x-waba-id']],
      );
      return rows[0]!.n;
    };
    expect(await linksOf()).toBe(3);
    const [first] = (await contactsOf(headers, '+14152000500')).results;
    await t.app.inject({ method: 'DELETE', url: `/recipient/${first!.id}/`, headers });
    expect(await linksOf()).toBe(2);
    const { rows: orphansBefore } = await t.db.pool.query<{ n: number }>(
      `select count(*)::int as n from contact_tags ct
        where not exists (select 1 from contacts c where c.id = ct.contact_id)
           or not exists (select 1 from tags g where g.id = ct.tag_id)`,
    );
    const { rows: account } = await t.db.pool.query<{ id: string }>(
      'delete from waba_accounts where waba_id = $1 returning id',
      [headers['x-waba-id']],
    );
    const { rows: left } = await t.db.pool.query<{ n: number }>(
      'select count(*)::int as n from contacts where waba_account_id = $1',
      [account[0]!.id],
    );
    expect(left[0]!.n).toBe(0);
    const { rows: orphansAfter } = await t.db.pool.query<{ n: number }>(
      `select count(*)::int as n from contact_tags ct
        where not exists (select 1 from contacts c where c.id = ct.contact_id)
           or not exists (select 1 from tags g where g.id = ct.tag_id)`,
    );
    expect(orphansBefore[0]!.n).toBe(0);
    expect(orphansAfter[0]!.n).toBe(0);
  });

  it('reads a BOM, CRLF, semicolons and quoted fields holding delimiters, quotes and line breaks', async () => {
    const { headers } = await contactsUser(t, 'dialect@acme.test');
    const csv =
      '\uFEFFName;Number;Address;Email;Notes\r\n' +
      '"Smith; John";+14155550401;"1 Main St,\r\nApt 2";JOHN@EXAMPLE.COM;"said ""hi"""\r\n' +
      '\r\n' +
      'Jane;+14155550402;;;\r\n';
    const response = await importCsv(t, headers, csv);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ created: 2, total: 2 });
    const list = await contactsOf(headers);
    const john = list.results.find((c) => c.whatsapp_number === '+14155550401')!;
    expect(john).toMatchObject({
      recipient_name: 'Smith; John',
      recipient_address: '1 Main St,\r\nApt 2',
      recipient_email: 'john@example.com',
    });
    const { rows } = await t.db.pool.query(
      "select attributes from contacts where whatsapp_number = '+14155550401'",
    );
    expect(rows[0].attributes).toEqual({ notes: 'said "hi"' });
    const cols = await t.app.inject({ method: 'GET', url: '/recipient/cols', headers });
    expect(cols.json()).toContain('notes');
  });

  it('refuses the whole file when one row among 10,000 is bad, naming it; nothing is written', async () => {
    const { headers } = await contactsUser(t, 'one-bad@acme.test');
    const before = await tableCounts();
    const rows = goodRows(10_000).split('\n');
    rows.splice(6_000, 0, 'Broken Row,not-a-number,,,,,');
    const response = await importCsv(t, headers, HEADER + rows.join('\n'), { tag: 'never' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    // Header = row 1, so the 6,001st data row is spreadsheet row 6,002.
    expect(body.message.errors).toEqual([{ row: 6_002, errors: [expect.stringContaining('not-a-number')] }]);
    expect(body.detail).toContain('nothing was imported');
    expect(await tableCounts()).toEqual(before);
    expect((await contactsOf(headers)).count).toBe(0);
  });

  it('names every bad row with every problem, counting rows as a spreadsheet does', async () => {
    const { headers } = await contactsUser(t, 'many-bad@acme.test');
    const csv =
      'name,number,age,email,extra\n' + // row 1
      'Good,+14155550501,30,a@b.co,\n' + // row 2
      ',,200,nope,\n' + // row 3
      '\n' + // row 4: blank, skipped but counted
      '"Multi\nLine",+14155550502,x,,\n' + // row 5 (one record over two lines)
      'Too,+14155550503,1,,,surplus\n'; // row 6
    const response = await importCsv(t, headers, csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toEqual([
      {
        row: 3,
        errors: [
          'name is required',
          'number is required',
          'age must be a whole number from 0 to 150',
          "email 'nope' is not a valid e-mail address",
        ],
      },
      { row: 5, errors: ['age must be a whole number from 0 to 150'] },
      { row: 6, errors: ['The row has 6 values but the header has 5 columns'] },
    ]);
  });

  it('lists at most 1,000 bad rows and says how many there were', async () => {
    const { headers } = await contactsUser(t, 'thousands-bad@acme.test');
    const response = await importCsv(t, headers, `name,number\n${'x,123\n'.repeat(1_500)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toHaveLength(1_000);
    expect(response.json().detail).toContain('1500 rows are invalid');
  });

  it('answers 400 for a header without name or number, a broken quote, and a file with no rows', async () => {
    const { headers } = await contactsUser(t, 'bad-shape@acme.test');
    const noNumber = await importCsv(t, headers, 'name,phone\nA,+14155550601\n');
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().message.errors[0].row).toBe(1);
    const quote = await importCsv(t, headers, 'name,number\nA,+14155550601\n"B,+14155550602\n');
    expect(quote.statusCode).toBe(400);
    expect(quote.json().message.errors[0].errors[0]).toContain('quoted');
    for (const csv of ['', 'name,number\n', '\n\n']) {
      const empty = await importCsv(t, headers, csv);
      expect(empty.statusCode, JSON.stringify(csv)).toBe(400);
      expect(empty.json().errors[0].field).toBe('file');
    }
    expect((await contactsOf(headers)).count).toBe(0);
  });

  it('answers the spec’s messages for a non-CSV file, no file and an empty tag, writing nothing', async () => {
    const { headers } = await contactsUser(t, 'messages@acme.test');
    const notCsv = await importCsv(t, headers, HEADER + goodRows(2), { filename: 'contacts.xlsx' });
    expect(notCsv.statusCode).toBe(400);
    expect(notCsv.json()).toMatchObject({
      message: 'Please upload a CSV file',
      errors: [{ field: 'file', message: 'Please upload a CSV file' }],
    });
    for (const tagLast of [false, true]) {
      const blankTag = await importCsv(t, headers, HEADER + goodRows(2), { tag: '   ', tagLast });
      expect(blankTag.statusCode).toBe(400);
      expect(blankTag.json().errors).toEqual([{ field: 'tag', message: 'Please enter a tag' }]);
    }
    const onlyTag = multipart([{ name: 'tag', value: 'x' }]);
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/recipient/import/',
      headers: { ...headers, ...onlyTag.headers },
      payload: onlyTag.payload,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().errors).toEqual([{ field: 'file', message: 'Please select a CSV file' }]);
    const json = await t.app.inject({
      method: 'POST',
      url: '/recipient/import/',
      headers,
      payload: { tag: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().errors[0].field).toBe('file');
    const noTagAtAll = multipart([{ name: 'file', filename: 'a.csv', content: HEADER + goodRows(1) }]);
    const noTag = await t.app.inject({
      method: 'POST',
      url: '/recipient/import/',
      headers: { ...headers, ...noTagAtAll.headers },
      payload: noTagAtAll.payload,
    });
    expect(noTag.json().errors).toEqual([{ field: 'tag', message: 'Please enter a tag' }]);
    expect((await contactsOf(headers)).count).toBe(0);
  });
});

describe('POST /recipient/import/ with a tags column', () => {
  const tagsOf = async (headers: Headers, number: string) =>
    (await contactsOf(headers, number)).results[0]!.tags.map((tag) => tag.tag_name).sort();

  it("tags each contact with its row's tags besides the file's, matching the account's tags whatever their case", async () => {
    const { headers } = await contactsUser(t, 'tags-column@acme.test');
    await importCsv(t, headers, 'name,number\nEarlier,+14153000009\n', { tag: 'VIP' });
    const response = await importCsv(
      t,
      headers,
      'name,number,tags\n' +
        'Ann,+14153000001,"vip; Newsletter"\n' +
        'Bob,+14153000002,newsletter\n' +
        'Cy,+14153000003,\n' +
        'Earlier,+14153000009,"Wholesale,vip"\n',
      { tag: 'March list' },
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await tagsOf(headers, '+14153000001')).toEqual(['March list', 'Newsletter', 'VIP']);
    expect(await tagsOf(headers, '+14153000002')).toEqual(['March list', 'Newsletter']);
    expect(await tagsOf(headers, '+14153000003')).toEqual(['March list']);
    // A stored contact keeps the tags it had and gains its row's.
    expect(await tagsOf(headers, '+14153000009')).toEqual(['March list', 'VIP', 'Wholesale']);
    const tags = (await t.app.inject({ method: 'GET', url: '/recipient/tags/', headers })).json() as Array<{
      name: string;
      count: number;
    }>;
    expect(tags.map(({ name, count }) => [name, count]).sort()).toEqual([
      ['March list', 4],
      ['Newsletter', 2],
      ['VIP', 2],
      ['Wholesale', 1],
    ]);
    // The column is the contacts' tags, not an extra column of their own.
    const { rows } = await t.db.pool.query(
      `select contact_columns.name from contact_columns join waba_accounts w on w.id = contact_columns.waba_account_id
        where w.waba_id = $1`,
      [headers['x-waba-id']],
    );
    expect(rows).toEqual([]);
  });

  it('refuses the whole file for a tag over 100 characters, naming the row and the column', async () => {
    const { headers } = await contactsUser(t, 'tags-too-long@acme.test');
    const before = await tableCounts();
    const response = await importCsv(
      t,
      headers,
      `name,number,tags\nAnn,+14153000001,vip\nBob,+14153000002,"ok;${'x'.repeat(101)}"\n`,
      { tag: 'never' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message.errors).toEqual([
      { row: 3, errors: [expect.stringMatching(/^tags: .* longer than 100 characters$/)] },
    ]);
    expect(await tableCounts()).toEqual(before);
  });
});

describe('POST /recipient/import/ size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ IMPORT_MAX_BYTES: '2048' });
  });
  afterAll(() => small.close());

  it('answers 413 naming file for a file over IMPORT_MAX_BYTES and writes nothing', async () => {
    const { headers } = await contactsUser(small, 'big@acme.test');
    const big = await importCsv(small, headers, HEADER + goodRows(200));
    expect(big.statusCode).toBe(413);
    expect(big.json().errors[0].field).toBe('file');
    expect(big.json().detail).toContain('2048 bytes');
    const { rows } = await small.db.pool.query('select count(*)::int as n from contacts');
    expect(rows[0].n).toBe(0);
    const fits = await importCsv(small, headers, HEADER + goodRows(5));
    expect(fits.statusCode).toBe(201);
  });
});
