import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { contactsUser, importCsv } from './contacts-test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;

const create = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/recipient/create/', headers, payload });
const update = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/meta/customer/', headers, payload });
const remove = (headers: Headers, id: number | string) =>
  t.app.inject({ method: 'DELETE', url: `/recipient/${id}/`, headers });
const list = (headers: Headers, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/recipient/create/${query}`,
    headers: { ...headers, host: 'herald.test' },
  });

describe('POST /recipient/create/', () => {
  it('creates a contact with its number in E.164 and answers 201 with the spec’s fields', async () => {
    const { headers } = await contactsUser(t, 'create@acme.test');
    const response = await create(headers, {
      customer_name: ' Ada Lovelace ',
      whatsapp_number: '1 (415) 555-0123',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      recipient_name: 'Ada Lovelace',
      whatsapp_number: '+14155550123',
      recipient_age: null,
      recipient_gender: null,
      recipient_address: null,
      recipient_post_code: null,
      recipient_email: null,
      tags: [],
      attributes: {},
      opted_out_at: null,
    });
    const uk = await create(headers, { customer_name: 'Grace', whatsapp_number: '0044 20 7946 0958' });
    expect(uk.json().whatsapp_number).toBe('+442079460958');
  });

  it('answers 400 naming whatsapp_number for an invalid number or one without a country code', async () => {
    const { headers } = await contactsUser(t, 'invalid@acme.test');
    for (const number of ['12345', 'not a number', '020 7946 0958', '+1415555012345678']) {
      const response = await create(headers, { customer_name: 'X', whatsapp_number: number });
      expect(response.statusCode, number).toBe(400);
      expect(response.json().errors[0].field).toBe('whatsapp_number');
    }
    // Said in plain words: what is wrong with the number, for which country.
    const short = await create(headers, {
      customer_name: 'X',
      whatsapp_number: '07911 1',
      default_country: 'GB',
    });
    expect(short.json().errors[0]).toEqual({
      field: 'whatsapp_number',
      message: 'The number is too short for a United Kingdom number (+44)',
    });
  });

  it('answers 400 naming each missing field', async () => {
    const { headers } = await contactsUser(t, 'missing@acme.test');
    const response = await create(headers, { customer_name: '  ', whatsapp_number: '' });
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .errors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['customer_name', 'whatsapp_number']);
  });

  it('answers 409 naming the existing contact for a number already in the account, in any spelling', async () => {
    const { headers } = await contactsUser(t, 'dup@acme.test');
    const first = (await create(headers, { customer_name: 'First', whatsapp_number: '+14155550100' })).json();
    const again = await create(headers, { customer_name: 'Second', whatsapp_number: '14155550100' });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].field).toBe('whatsapp_number');
    expect(again.json().detail).toBe('+1 415 555 0100 already belongs to First');
    expect(again.json().detail).not.toContain(`${first.id}`);
  });

  it('lets two accounts hold the same number', async () => {
    const a = await contactsUser(t, 'same-a@acme.test');
    const b = await contactsUser(t, 'same-b@acme.test');
    expect(
      (await create(a.headers, { customer_name: 'A', whatsapp_number: '+14155550111' })).statusCode,
    ).toBe(201);
    expect(
      (await create(b.headers, { customer_name: 'B', whatsapp_number: '+14155550111' })).statusCode,
    ).toBe(201);
  });
});

describe('PUT /meta/customer/ and DELETE /recipient/{id}/', () => {
  it('updates name and number (200 with the contact) and keeps its tags', async () => {
    const { headers } = await contactsUser(t, 'update@acme.test');
    await importCsv(t, headers, 'name,number\nOld Name,+14155550150\n', { tag: 'vip' });
    const [contact] = (await list(headers)).json().results;
    const response = await update(headers, {
      customer_id: contact.id,
      customer_name: 'New Name',
      whatsapp_number: '+44 7911 123456',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: contact.id,
      recipient_name: 'New Name',
      whatsapp_number: '+447911123456',
      tags: [{ id: expect.any(Number), tag_name: 'vip' }],
    });
  });

  it('answers 404 for an unknown id, 409 for a number another contact has, 400 for a bad number', async () => {
    const { headers } = await contactsUser(t, 'update-bad@acme.test');
    const one = (await create(headers, { customer_name: 'One', whatsapp_number: '+14155550161' })).json();
    const two = (await create(headers, { customer_name: 'Two', whatsapp_number: '+14155550162' })).json();
    const unknown = await update(headers, {
      customer_id: 987654321,
      customer_name: 'X',
      whatsapp_number: '+14155550199',
    });
    expect(unknown.statusCode).toBe(404);
    const taken = await update(headers, {
      customer_id: two.id,
      customer_name: 'Two',
      whatsapp_number: '+14155550161',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe('+1 415 555 0161 already belongs to One');
    expect(taken.json().detail).not.toContain(`${one.id}`);
    const bad = await update(headers, { customer_id: two.id, customer_name: 'Two', whatsapp_number: '555' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('whatsapp_number');
    const noId = await update(headers, { customer_name: 'Two', whatsapp_number: '+14155550162' });
    expect(noId.json().errors[0].field).toBe('customer_id');
  });

  it('deletes a contact (204), then answers 404; the count follows', async () => {
    const { headers } = await contactsUser(t, 'delete@acme.test');
    const contact = (
      await create(headers, { customer_name: 'Gone', whatsapp_number: '+14155550170' })
    ).json();
    await create(headers, { customer_name: 'Stays', whatsapp_number: '+14155550171' });
    expect((await list(headers)).json().count).toBe(2);
    const response = await remove(headers, contact.id);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await remove(headers, contact.id)).statusCode).toBe(404);
    expect((await remove(headers, 'abc')).statusCode).toBe(400);
    const after = (await list(headers)).json();
    expect(after.count).toBe(1);
    expect(after.results.map((c: { recipient_name: string }) => c.recipient_name)).toEqual(['Stays']);
  });
});

describe('another account’s contacts', () => {
  it('are invisible to user B: 404 on update and delete, absent from lists; 403 with A’s X-WABA-ID', async () => {
    const alice = await contactsUser(t, 'alice-contacts@acme.test');
    const bob = await contactsUser(t, 'bob-contacts@acme.test');
    const contact = (
      await create(alice.headers, { customer_name: 'Secret', whatsapp_number: '+14155550180' })
    ).json();
    await importCsv(t, alice.headers, 'name,number,loyalty\nHidden,+14155550181,gold\n', {
      tag: 'alice-tag',
    });

    const updated = await update(bob.headers, {
      customer_id: contact.id,
      customer_name: 'Stolen',
      whatsapp_number: '+14155550182',
    });
    expect(updated.statusCode).toBe(404);
    expect((await remove(bob.headers, contact.id)).statusCode).toBe(404);
    expect((await list(bob.headers, '?search=secret')).json()).toMatchObject({ count: 0, results: [] });
    expect((await list(bob.headers)).json().count).toBe(0);
    const tags = await t.app.inject({ method: 'GET', url: '/recipient/tags/', headers: bob.headers });
    expect(tags.json()).toEqual([]);
    const cols = await t.app.inject({ method: 'GET', url: '/recipient/cols', headers: bob.headers });
    expect(cols.json()).not.toContain('loyalty');

    const asAlice = { ...bob.headers, 'x-waba-id': alice.business.waba_id };
    expect((await list(asAlice)).statusCode).toBe(403);
    expect((await remove(asAlice, contact.id)).statusCode).toBe(403);
    expect((await importCsv(t, asAlice, 'name,number\nX,+14155550183\n')).statusCode).toBe(403);
    expect((await list(alice.headers)).json().count).toBe(2);
    expect((await remove(alice.headers, contact.id)).statusCode).toBe(204);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/recipient/create/' })).statusCode).toBe(401);
  });
});

describe('GET /recipient/create/', () => {
  let headers: Headers;
  beforeAll(async () => {
    ({ headers } = await contactsUser(t, 'list@acme.test'));
    const rows = Array.from({ length: 30 }, (_, i) => {
      const n = String(i).padStart(2, '0');
      const name = i === 7 ? 'Zoë O’Brien' : `Person ${n}`;
      return `${name},+1415555${String(1000 + i)},${20 + i},,,,person${n}@Example.com`;
    });
    await importCsv(t, headers, `name,number,age,gender,address,post_code,email\n${rows.join('\n')}\n`);
    await create(headers, { customer_name: 'Newest 100%_done', whatsapp_number: '+14155559999' });
  });

  it('pages newest first with absolute next/previous links and the total count', async () => {
    const first = await list(headers);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.count).toBe(31);
    expect(body.results).toHaveLength(10);
    expect(body.results[0].recipient_name).toBe('Newest 100%_done');
    expect(body.next).toBe('http://herald.test/recipient/create/?page=2&page_size=10');
    expect(body.previous).toBeNull();
    expect(body.results[1]).toMatchObject({
      recipient_age: expect.any(Number),
      tags: [{ tag_name: 'customers' }],
    });

    const last = (await list(headers, '?page=4&page_size=10')).json();
    expect(last.results).toHaveLength(1);
    expect(last.next).toBeNull();
    expect(last.previous).toBe('http://herald.test/recipient/create/?page=3&page_size=10');

    const ids = new Set<number>();
    for (let page = 1; page <= 2; page += 1) {
      for (const c of (await list(headers, `?page=${page}&page_size=25`)).json().results) ids.add(c.id);
    }
    expect(ids.size).toBe(31);
  });

  it('answers an empty page past the end, with the count and a link back', async () => {
    const body = (await list(headers, '?page=9&page_size=10')).json();
    expect(body).toEqual({
      count: 31,
      next: null,
      previous: 'http://herald.test/recipient/create/?page=8&page_size=10',
      results: [],
    });
  });

  it('answers 400 naming page_size for a size outside 10, 25, 50, 100, and page for a bad page', async () => {
    for (const query of ['?page_size=20', '?page_size=abc', '?page_size=0']) {
      const response = await list(headers, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].field).toBe('page_size');
    }
    for (const query of ['?page=0', '?page=-1', '?page=x', '?page=1.5']) {
      const response = await list(headers, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].field).toBe('page');
    }
    for (const size of [10, 25, 50, 100])
      expect((await list(headers, `?page_size=${size}`)).statusCode).toBe(200);
  });

  it('searches name, number and e-mail by substring, case-insensitively, with an exact count', async () => {
    const names = async (search: string) => {
      const body = (await list(headers, `?search=${encodeURIComponent(search)}&page_size=100`)).json();
      return {
        count: body.count,
        names: body.results.map((c: { recipient_name: string }) => c.recipient_name),
      };
    };
    expect(await names('person 1')).toEqual({
      count: 10,
      names: expect.arrayContaining(['Person 10', 'Person 19']),
    });
    expect((await names('ZOË')).names).toEqual(['Zoë O’Brien']);
    expect((await names('PERSON05@EXAMPLE')).names).toEqual(['Person 05']);
    expect((await names('5551012')).names).toEqual(['Person 12']);
    expect((await names('+1 415 555 1012')).names).toEqual(['Person 12']);
    expect((await names('100%_')).names).toEqual(['Newest 100%_done']);
    expect((await names('%')).names).toEqual(['Newest 100%_done']);
    expect(await names('nobody-matches-this')).toEqual({ count: 0, names: [] });
    const paged = (await list(headers, '?search=person&page=2&page_size=10')).json();
    expect(paged.count).toBe(30);
    expect(paged.next).toBe('http://herald.test/recipient/create/?page=3&page_size=10&search=person');
  });
});

describe('every column of a contact from the form', () => {
  it('creates and edits e-mail, age, gender, address, post code and custom columns; absent keeps, empty clears', async () => {
    const { headers } = await contactsUser(t, 'details@acme.test');
    await importCsv(t, headers, 'name,number,loyalty_tier\nZ,+14155550299,silver\n', { tag: 'Seed' });
    const created = await create(headers, {
      customer_name: 'Ada',
      whatsapp_number: '+14155550231',
      email: ' Ada@Example.TEST ',
      age: 36,
      gender: 'female',
      address: '12 St James Square',
      post_code: 'SW1Y 4JH',
      attributes: { loyalty_tier: 'gold' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      recipient_email: 'ada@example.test',
      recipient_age: 36,
      recipient_gender: 'female',
      recipient_address: '12 St James Square',
      recipient_post_code: 'SW1Y 4JH',
      attributes: { loyalty_tier: 'gold' },
    });
    const id = created.json().id as number;

    const updated = await update(headers, {
      customer_id: id,
      customer_name: 'Ada',
      whatsapp_number: '+14155550231',
      age: 37,
      address: '',
      attributes: { loyalty_tier: '' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      recipient_email: 'ada@example.test',
      recipient_age: 37,
      recipient_gender: 'female',
      recipient_address: null,
      recipient_post_code: 'SW1Y 4JH',
      attributes: {},
    });
  });

  it('refuses a bad e-mail, an age out of range, a text too long and an unknown custom column, naming each', async () => {
    const { headers } = await contactsUser(t, 'details-bad@acme.test');
    const base = { customer_name: 'Bo', whatsapp_number: '+14155550241' };
    for (const [payload, field] of [
      [{ email: 'not-an-address' }, 'email'],
      [{ age: 151 }, 'age'],
      [{ age: 'ten' }, 'age'],
      [{ gender: 'x'.repeat(51) }, 'gender'],
      [{ attributes: { favourite_colour: 'blue' } }, 'attributes.favourite_colour'],
    ] as const) {
      const response = await create(headers, { ...base, ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // Nothing half-written: no contact was created by any of them.
    expect((await list(headers)).json().count).toBe(0);
  });
});

describe('GET /recipient/tags/ and GET /recipient/cols', () => {
  it('counts each tag’s contacts in this account; lists fixed columns then imported extras', async () => {
    const { headers } = await contactsUser(t, 'tags@acme.test');
    await importCsv(
      t,
      headers,
      'name,number,Loyalty Tier,city\nA,+14155550201,gold,Paris\nB,+14155550202,,\n',
      {
        tag: 'Spring',
      },
    );
    await importCsv(t, headers, 'name,number\nB,+14155550202\nC,+14155550203\n', { tag: 'vip' });
    await importCsv(t, headers, 'name,number\nC,+14155550203\n', { tag: 'VIP' });
    const tags = await t.app.inject({ method: 'GET', url: '/recipient/tags/', headers });
    expect(tags.statusCode).toBe(200);
    expect(tags.json()).toEqual([
      { id: expect.any(Number), name: 'Spring', count: 2 },
      { id: expect.any(Number), name: 'vip', count: 2 },
    ]);
    const cols = await t.app.inject({ method: 'GET', url: '/recipient/cols', headers });
    expect(cols.json()).toEqual([
      'name',
      'whatsapp_number',
      'age',
      'gender',
      'address',
      'post_code',
      'email',
      'city',
      'loyalty_tier',
    ]);
    const fresh = await contactsUser(t, 'cols-fresh@acme.test');
    expect(
      (await t.app.inject({ method: 'GET', url: '/recipient/cols', headers: fresh.headers })).json(),
    ).toHaveLength(7);
  });
});
