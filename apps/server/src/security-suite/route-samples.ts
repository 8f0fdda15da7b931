import { multipart } from '../features/contacts/contacts-test-helpers';
import { imageTemplate, segmentDefinition, textTemplate, type Slot } from './tenants';

/** Template names take lowercase letters and underscores only: 1042 → 'bace'. */
const letters = (digits: string) => digits.replace(/\d/g, (d) => String.fromCharCode(97 + Number(d)));

/**
 * Picks the value of a slot for the request being built: the crossing tenant's for the slot under test,
 * otherwise the caller's own (or `own` when the caller's value is made per request, like a fresh signup).
 */
export type SlotPicker = (slot: Slot, own?: string | number) => string | number;

export interface SampleContext {
  /** A fresh Embedded Signup (new WABA, number and one-time code) of nobody yet. */
  freshSignup(): Promise<{ waba_id: string; phone_number_id: string; business_id: string; code: string }>;
  /** A string unique in this run, for names and numbers that must not collide. */
  unique(): string;
}

export type RequestBody =
  { json: unknown } | { multipart: { payload: Buffer; headers: Record<string, string> } };
export type BodySample =
  | ((pick: SlotPicker, context: SampleContext) => Promise<RequestBody> | RequestBody)
  | {
      none: string;
    };

/** A contact CSV import (tag, then file) with one new contact of its own. */
export function importBody(unique: string) {
  return multipart([
    { name: 'tag', value: `matrix-${unique}` },
    {
      name: 'file',
      filename: 'contacts.csv',
      content: `name,number\nImported ${unique},+1415559${unique}\n`,
    },
  ]);
}

/**
 * Valid JSON bodies of the write routes, with every object id taken through `pick`, so the matrix can put
 * another business's id in any one of them. Each is also sent by the id's owner, who must get a 2xx.
 */
export const samplePayloads: Record<string, BodySample> = {
  'POST /recipient/create/': (_pick, context) => {
    const unique = context.unique();
    return { json: { customer_name: `Matrix ${unique}`, whatsapp_number: `+1415557${unique}` } };
  },
  'PUT /meta/customer/': (pick, context) => {
    const unique = context.unique();
    return {
      json: {
        customer_id: pick('contact'),
        customer_name: `Renamed ${unique}`,
        whatsapp_number: `+1415558${unique}`,
      },
    };
  },
  'POST /recipient/tags/add/': (pick, context) => ({
    json: { contact_ids: [pick('contact')], tag_name: `matrix-${context.unique()}` },
  }),
  'POST /recipient/tags/remove/': (pick) => ({
    json: { contact_ids: [pick('contact')], tag_id: pick('tag') },
  }),
  'PUT /recipient/tags/{id}/': (_pick, context) => ({ json: { name: `renamed-${context.unique()}` } }),
  'POST /meta/templates/': (_pick, context) => ({
    json: textTemplate(`matrix_${letters(context.unique())}`),
  }),
  'PUT /meta/templates/{id}/': (pick) => ({
    json: imageTemplate(String(pick('templateName')), 'Our sale starts today.'),
  }),
  'DELETE /meta/templates/': (pick) => ({
    json: { template_id: String(pick('metaTemplate')), template_name: String(pick('templateName')) },
  }),
  'POST /broadcast/create/': (pick, context) => ({
    json: {
      name: `Matrix ${context.unique()}`,
      template_id: pick('template'),
      recipients: { type: 'filtered', tag_ids: [pick('tag')], percentage: 100 },
      // An earlier broadcast's recipients, narrowed by the tag (decision 037): both ids in one request.
      audience: { kind: 'broadcast_recipients', broadcast_id: pick('broadcast'), filter: {} },
      scheduled_time: Math.floor(Date.now() / 1000) + 86_400,
      phone_number_id: String(pick('phoneNumber')),
    },
  }),
  'POST /broadcast/estimate/': (pick) => ({
    json: {
      template_id: pick('template'),
      recipients: { type: 'filtered', tag_ids: [pick('tag')], percentage: 100 },
      // An earlier broadcast's recipients, narrowed by the tag (decision 037): both ids in one request.
      audience: { kind: 'broadcast_recipients', broadcast_id: pick('broadcast'), filter: {} },
      phone_number_id: String(pick('phoneNumber')),
    },
  }),
  'POST /pricing/estimate/': (pick) => ({
    json: {
      template_id: pick('template'),
      recipients: { type: 'filtered', tag_ids: [pick('tag')], percentage: 100 },
      audience: { kind: 'broadcast_recipients', broadcast_id: pick('broadcast'), filter: {} },
      phone_number_id: String(pick('phoneNumber')),
    },
  }),
  'POST /broadcast/test/': (pick, context) => ({
    json: {
      template_id: pick('template'),
      phone_number_id: String(pick('phoneNumber')),
      contact_id: pick('contact'),
      to: `+1415559${context.unique()}`,
    },
  }),
  'POST /segments/': (pick, context) => ({
    json: {
      name: `Matrix ${context.unique()}`,
      definition: segmentDefinition(pick('tag'), pick('broadcast')),
    },
  }),
  'PUT /segments/{id}/': (pick, context) => ({
    json: {
      name: `Matrix ${context.unique()}`,
      definition: segmentDefinition(pick('tag'), pick('broadcast')),
    },
  }),
  'POST /segments/count/': (pick) => ({
    json: { definition: segmentDefinition(pick('tag'), pick('broadcast')) },
  }),
  // The bell's "seen" mark: no ids, only the business header scopes it.
  'POST /dashboard/header/seen': () => ({ json: {} }),
  // The account's settings: no ids, only the business header scopes them.
  'PUT /settings/': () => ({ json: { beta_features: true } }),
  // The caller's own account (no ids): the same password again, so the tenant's sign-in stays as it was.
  'PUT /api/auth/account/': () => ({
    json: { current_password: 'correct horse', new_password: 'correct horse' },
  }),
  'PUT /api/auth/facebook/callback/': async (pick, context) => {
    const signup = await context.freshSignup();
    return {
      json: {
        payload: {
          code: signup.code,
          account_data: {
            waba_id: String(pick('waba', signup.waba_id)),
            phone_number_id: String(pick('phoneNumber', signup.phone_number_id)),
            business_id: signup.business_id,
          },
        },
      },
    };
  },
};
