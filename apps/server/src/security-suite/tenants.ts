import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../app';
import { testConfig } from '../../../../test-support/test-config';
import type { TestApp } from '../../../../test-support/test-app';
import { login, signUp } from '../features/auth/auth-test-helpers';
import { importCsv } from '../features/contacts/contacts-test-helpers';
import { PNG, templateMultipart } from '../features/templates/templates-test-helpers';

export const PASSWORD = 'correct horse';

/** Kinds of object a request can name by id; the cross-tenant matrix swaps each for another tenant's. */
export type Slot =
  | 'waba'
  | 'phoneNumber'
  | 'contact'
  | 'tag'
  | 'template'
  | 'metaTemplate'
  | 'templateName'
  | 'draftTemplate'
  | 'media'
  | 'broadcast'
  | 'segment';

/** A business signed up through the API, owning one of each object, with what identifies it in answers. */
export interface Tenant {
  email: string;
  accessToken: string;
  wabaId: string;
  ids: Record<Slot, string | number>;
  /** Strings that only this tenant's data contains: names, numbers, Meta ids. */
  markers: string[];
  /** Authorization and X-WABA-ID of this tenant. */
  headers: Record<string, string>;
}

/** A fresh Embedded Signup at the sandbox (a new business, WABA and number, and a one-time code). */
export async function sandboxSignup(sandboxUrl: string, businessName: string) {
  const response = await fetch(`${sandboxUrl}/__sandbox/wabas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ business_name: businessName }),
  });
  if (response.status !== 201) throw new Error(`sandbox answered ${response.status}`);
  return (await response.json()) as {
    waba_id: string;
    phone_number_id: string;
    business_id: string;
    code: string;
  };
}

/** Configures the sandbox to send its signed webhooks (template reviews) to this app, listening for real. */
export async function listenForWebhooks(t: TestApp): Promise<void> {
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  await fetch(`${t.sandboxUrl}/__sandbox/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${address}/webhooks/whatsapp`, review_delay_ms: 600_000 }),
  });
}

function expectStatus(response: { statusCode: number; body: string }, status: number, what: string) {
  if (response.statusCode !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.statusCode} ${response.body}`);
  }
}

export function imageTemplate(name: string, body = 'Our sale starts now.') {
  return {
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: body },
    ],
    static_variables: {},
    dynamic_variables: {},
  };
}

export function textTemplate(name: string) {
  return {
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello from a text template.' }],
    static_variables: {},
    dynamic_variables: {},
  };
}

/** Has the sandbox decide a template APPROVED now and waits until Herald applied the signed webhook. */
async function approve(t: TestApp, tenant: Pick<Tenant, 'headers'>, id: number, metaId: string) {
  const review = await fetch(`${t.sandboxUrl}/__sandbox/templates/${metaId}/review`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'APPROVED' }),
  });
  if (review.status !== 200) throw new Error(`sandbox review answered ${review.status}`);
  const deadline = Date.now() + 10_000;
  for (;;) {
    await t.app.webhooks.idle();
    const detail = await t.app.inject({
      method: 'GET',
      url: `/meta/templates/${id}/`,
      headers: tenant.headers,
    });
    if (detail.json().status === 'APPROVED') return;
    if (Date.now() > deadline) throw new Error(`template ${id} was not approved: ${detail.body}`);
    await sleep(50);
  }
}

/** A draft: the template created while the Cloud API is unreachable (an app wired to a closed port). */
async function createDraft(t: TestApp, headers: Record<string, string>, name: string): Promise<number> {
  const offline = await buildApp({
    config: testConfig({
      GRAPH_API_BASE: 'http://127.0.0.1:1',
      JWT_SECRET: t.config.JWT_SECRET!,
      ENCRYPTION_KEY: t.config.ENCRYPTION_KEY!,
      WEB_DIST_DIR: '/nonexistent',
    }),
    pool: t.db.pool,
    logger: false,
  });
  try {
    const response = await offline.inject({
      method: 'POST',
      url: '/meta/templates/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: textTemplate(name),
    });
    expectStatus(response, 201, 'draft template');
    return response.json().id as number;
  } finally {
    await offline.close();
  }
}

/**
 * Signs a business up and gives it, through the API only, a contact, a tag (by a CSV import), an approved
 * template with an image header (so a media id), a draft template and a scheduled broadcast. `label` is a
 * short lowercase word that makes every name of this tenant unique (its markers).
 */
export async function createTenant(t: TestApp, label: string, digits: string): Promise<Tenant> {
  const email = `${label}@tenants.test`;
  const business = await sandboxSignup(t.sandboxUrl, `${label} Trading Co`);
  expectStatus(await signUp(t.app, business, { email }), 200, 'sign-up');
  const session = await login(t.app, email, PASSWORD);
  expectStatus(session, 200, 'login');
  const accessToken = session.json().accessToken as string;
  const headers = { authorization: `Bearer ${accessToken}`, 'x-waba-id': business.waba_id };

  const contactName = `${label} Customer`;
  const contactNumber = `+1415555${digits}`;
  const contact = await t.app.inject({
    method: 'POST',
    url: '/recipient/create/',
    headers,
    payload: { customer_name: contactName, whatsapp_number: contactNumber },
  });
  expectStatus(contact, 201, 'contact');

  const tagName = `${label}-vip`;
  const taggedNumber = `+1415556${digits}`;
  expectStatus(
    await importCsv(t, headers, `name,number\n${label} Tagged,${taggedNumber}\n`, { tag: tagName }),
    201,
    'import',
  );
  const tags = (await t.app.inject({ method: 'GET', url: '/recipient/tags/', headers })).json() as Array<{
    id: number;
    name: string;
  }>;
  const tag = tags.find((entry) => entry.name === tagName)!;

  const templateName = `${label}_sale`;
  const multipart = templateMultipart(imageTemplate(templateName), {
    name: 'sale.png',
    type: 'image/png',
    bytes: PNG,
  });
  const template = await t.app.inject({
    method: 'POST',
    url: '/meta/templates/',
    headers: { ...headers, ...multipart.headers },
    payload: multipart.payload,
  });
  expectStatus(template, 201, 'template');
  const { id: templateId, template_id: metaTemplateId } = template.json() as {
    id: number;
    template_id: string;
  };
  await approve(t, { headers }, templateId, metaTemplateId);
  const detail = (
    await t.app.inject({ method: 'GET', url: `/meta/templates/${templateId}/`, headers })
  ).json() as { media_url: string };
  const mediaId = Number(/\/media\/(\d+)\//.exec(detail.media_url)![1]);
  const draftName = `${label}_draft`;
  const draftId = await createDraft(t, headers, draftName);

  const broadcastName = `${label} Spring Sale`;
  const broadcast = await t.app.inject({
    method: 'POST',
    url: '/broadcast/create/',
    headers,
    payload: {
      name: broadcastName,
      template_id: templateId,
      recipients: { type: 'filtered', tag_ids: [tag.id], percentage: 100 },
      scheduled_time: Math.floor(Date.now() / 1000) + 86_400,
    },
  });
  expectStatus(broadcast, 201, 'broadcast');
  const segmentName = `${label} Gold readers`;
  const broadcastId = (broadcast.json() as { id: number }).id;
  const segment = await t.app.inject({
    method: 'POST',
    url: '/segments/',
    headers,
    payload: { name: segmentName, definition: segmentDefinition(tag.id, broadcastId) },
  });
  expectStatus(segment, 201, 'segment');

  const numbers = (await t.app.inject({ method: 'GET', url: '/meta/phone/whatsapp/', headers })).json() as {
    data: Array<{ display_phone_number?: string }>;
  };
  return {
    email,
    accessToken,
    wabaId: business.waba_id,
    headers,
    ids: {
      waba: business.waba_id,
      phoneNumber: business.phone_number_id,
      contact: (contact.json() as { id: number }).id,
      tag: tag.id,
      template: templateId,
      metaTemplate: metaTemplateId,
      templateName,
      draftTemplate: draftId,
      media: mediaId,
      broadcast: broadcastId,
      segment: (segment.json() as { id: number }).id,
    },
    markers: [
      business.waba_id,
      business.phone_number_id,
      metaTemplateId,
      `${label} Trading Co`,
      contactName,
      contactNumber,
      contactNumber.slice(2),
      taggedNumber,
      tagName,
      templateName,
      draftName,
      broadcastName,
      segmentName,
      ...numbers.data.map((n) => n.display_phone_number ?? '').filter((n) => n.length >= 8),
    ],
  };
}

/** A segment naming a tag and a broadcast of the same tenant: what the matrix crosses in segment bodies. */
export function segmentDefinition(tagId: string | number, broadcastId: string | number) {
  return {
    match: 'all',
    groups: [
      {
        match: 'any',
        rules: [
          { kind: 'tags', match: 'any', tag_ids: [Number(tagId)] },
          { kind: 'engagement', event: 'read', did: true, broadcast_id: Number(broadcastId) },
        ],
      },
    ],
  };
}

/** The first of `markers` that `text` contains, if any. */
export function leakedMarker(text: string, markers: string[]): string | undefined {
  return markers.find((marker) => text.includes(marker));
}
