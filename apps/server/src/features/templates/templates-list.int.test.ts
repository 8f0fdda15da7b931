import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test-support/test-app';
import { signedInUser } from '../auth/auth-test-helpers';
import { insertTemplate } from './templates-repo';
import { templateMultipart } from './templates-test-helpers';

let t: TestApp;
let headers: Record<string, string>;
let other: Record<string, string>;

const headersOf = (user: Awaited<ReturnType<typeof signedInUser>>) => ({
  authorization: `Bearer ${user.accessToken}`,
  'x-waba-id': user.business.waba_id,
});

async function accountId(wabaId: string): Promise<number> {
  const { rows } = await t.db.pool.query<{ id: number }>(
    'select id::int from waba_accounts where waba_id = $1',
    [wabaId],
  );
  return rows[0]!.id;
}

/** Twelve templates with known update times: 'tpl_<letter>' updated <n> minutes ago, in a shuffled order. */
const SEEDED = [
  'kiwi',
  'apple_sale',
  'mango',
  'banana_sale',
  'lime',
  'cherry',
  'fig_sale',
  'grape',
  'date',
  'elder',
  'hazel',
  'iris_sale',
];

beforeAll(async () => {
  t = await startTestApp();
  // No webhook URL: the sandbox's review verdicts never reach Herald, as when a webhook is missed.
  await fetch(`${t.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: null, review_delay_ms: 600_000 }),
  });
  const owner = await signedInUser(t, 'sorting@acme.test');
  headers = headersOf(owner);
  other = headersOf(await signedInUser(t, 'other@acme.test', 'Other Shop'));
  const id = await accountId(owner.business.waba_id);
  for (const [index, name] of SEEDED.entries()) {
    const row = await insertTemplate(t.db.pool, id, {
      name,
      language: 'en_US',
      category: 'MARKETING',
      status: 'DRAFT',
      metaTemplateId: null,
      components: [{ type: 'BODY', text: `Hello from ${name}` }],
      staticVariables: {},
      dynamicVariables: {},
      mediaId: null,
    });
    // Index 0 is the most recently updated; each next one a minute older.
    await t.db.pool.query(
      `update templates set updated_at = now() - make_interval(mins => $2) where id = $1`,
      [row, index],
    );
  }
});
afterAll(() => t.close());

type Page = {
  count: number;
  currentPage: number;
  next: string | null;
  previous: string | null;
  results: Array<{ template_name: string }>;
};

async function list(query: string, as = headers): Promise<Page> {
  const response = await t.app.inject({ method: 'GET', url: `/meta/templates/?${query}`, headers: as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Page;
}

/** Every page of a listing, followed through its `next` links, as the names in order. */
async function allPages(query: string): Promise<string[]> {
  const names: string[] = [];
  let page = await list(query);
  names.push(...page.results.map((r) => r.template_name));
  while (page.next) {
    expect(page.next).toContain(new URLSearchParams(query).get('sort') ?? 'sort=latest');
    page = await list(new URL(page.next).search.slice(1));
    names.push(...page.results.map((r) => r.template_name));
  }
  return names;
}

describe("GET /meta/templates/ 'Sorted by'", () => {
  it('Latest: most recently updated first, across pages of 5', async () => {
    const names = await allPages('page_size=5&sort=latest');
    expect(names).toEqual(SEEDED);
    expect((await list('page_size=5')).results.map((r) => r.template_name)).toEqual(SEEDED.slice(0, 5));
  });

  it('Oldest: least recently updated first, across pages', async () => {
    expect(await allPages('page_size=5&sort=oldest')).toEqual([...SEEDED].reverse());
    const third = await list('page_size=5&sort=oldest&page=3');
    expect(third.currentPage).toBe(3);
    expect(third.results.map((r) => r.template_name)).toEqual([...SEEDED].reverse().slice(10));
    expect(third.previous).toContain('sort=oldest');
    expect(third.next).toBeNull();
  });

  it('Name: A to Z across pages', async () => {
    expect(await allPages('page_size=5&sort=name')).toEqual([...SEEDED].sort());
  });

  it('sorts the search results and pages them', async () => {
    const byName = await list('page_size=2&sort=name&search=SALE');
    expect(byName.count).toBe(4);
    expect(byName.results.map((r) => r.template_name)).toEqual(['apple_sale', 'banana_sale']);
    expect(byName.next).toMatch(/search=SALE/);
    expect(
      (await list('page_size=2&sort=name&search=SALE&page=2')).results.map((r) => r.template_name),
    ).toEqual(['fig_sale', 'iris_sale']);
    expect(await allPages('page_size=3&sort=oldest&search=sale')).toEqual([
      'iris_sale',
      'fig_sale',
      'banana_sale',
      'apple_sale',
    ]);
  });

  it('refuses an unknown sort with 400 naming the field', async () => {
    for (const sort of ['random', 'LATEST', '']) {
      const response = await t.app.inject({ method: 'GET', url: `/meta/templates/?sort=${sort}`, headers });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('sort');
    }
  });

  it("lists only the caller's account", async () => {
    expect((await list('sort=name', other)).count).toBe(0);
  });
});

async function createAtMeta(name: string, as: Record<string, string>) {
  const body = templateMultipart({
    name,
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Your order is ready.' }],
    static_variables: {},
    dynamic_variables: {},
  });
  const response = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers: { ...as, ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: number; template_id: string; status: string };
}

async function review(metaId: string, status: string, reason?: string) {
  const response = await fetch(`${t.sandboxUrl}/__sandbox/templates/${metaId}/review`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status, ...(reason ? { reason } : {}) }),
  });
  expect(response.status).toBe(200);
}

describe("POST /meta/templates/sync/ ('Refresh from Meta')", () => {
  it("applies Meta's verdicts that no webhook brought, for the caller's account only", async () => {
    const approved = await createAtMeta('sync_approved', headers);
    const rejected = await createAtMeta('sync_rejected', headers);
    const theirs = await createAtMeta('sync_theirs', other);
    expect([approved.status, rejected.status, theirs.status]).toEqual(['PENDING', 'PENDING', 'PENDING']);
    await review(approved.template_id, 'APPROVED');
    await review(rejected.template_id, 'REJECTED', 'SCAM');
    await review(theirs.template_id, 'APPROVED');
    const before = (await list('search=sync_&sort=name')).results;
    expect(before.map((r) => (r as unknown as { status: string }).status)).toEqual(['PENDING', 'PENDING']);

    const sync = await t.app.inject({ method: 'POST', url: '/meta/templates/sync/', headers });
    expect(sync.statusCode, sync.body).toBe(200);
    expect(sync.json()).toEqual({ checked: 2, updated: 2 });

    const after = (await list('search=sync_&sort=name')).results as unknown as Array<{
      template_name: string;
      status: string;
      rejected_reason: string | null;
      quality_score: { score: string } | null;
    }>;
    expect(after).toMatchObject([
      {
        template_name: 'sync_approved',
        status: 'APPROVED',
        rejected_reason: null,
        quality_score: null,
      },
      { template_name: 'sync_rejected', status: 'REJECTED', rejected_reason: 'SCAM' },
    ]);
    // The status change moved 'Last Updated Time': Latest now starts with the two.
    expect((await list('sort=latest&page_size=2')).results.map((r) => r.template_name).sort()).toEqual([
      'sync_approved',
      'sync_rejected',
    ]);
    // The other business's template is not touched by this account's refresh.
    expect((await list('search=sync_', other)).results).toMatchObject([
      { template_name: 'sync_theirs', status: 'PENDING' },
    ]);

    // Nothing changed at Meta since: a second refresh changes nothing.
    const again = await t.app.inject({ method: 'POST', url: '/meta/templates/sync/', headers });
    expect(again.json()).toEqual({ checked: 2, updated: 0 });

    // Meta pauses the approved one for its quality; the missed webhook is made up by the next refresh.
    const paused = await fetch(`${t.sandboxUrl}/__sandbox/templates/${approved.template_id}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'PAUSED' }),
    });
    expect(paused.status).toBe(200);
    const third = await t.app.inject({ method: 'POST', url: '/meta/templates/sync/', headers });
    expect(third.json()).toEqual({ checked: 2, updated: 1 });
    expect((await list('search=sync_approved')).results).toMatchObject([{ status: 'PAUSED' }]);
  });
});

describe("GET /meta/templates/ 'Components'", () => {
  it('says what each template is made of, in the order Meta keeps its components', async () => {
    const owner = await signedInUser(t, 'components@acme.test', 'Components Shop');
    await insertTemplate(t.db.pool, await accountId(owner.business.waba_id), {
      name: 'parts_listed',
      language: 'en_US',
      category: 'MARKETING',
      status: 'DRAFT',
      metaTemplateId: null,
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Fresh bread today' },
        { type: 'FOOTER', text: 'Reply STOP to opt out' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Order', url: 'https://crumb.example/order' }] },
      ],
      staticVariables: {},
      dynamicVariables: {},
      mediaId: null,
    });
    const response = await t.app.inject({
      method: 'GET',
      url: '/meta/templates/',
      headers: headersOf(owner),
    });
    expect(response.json().results).toMatchObject([
      { template_name: 'parts_listed', components: ['Header (image)', 'Body', 'Footer', 'Buttons (1)'] },
    ]);
  });
});
