import type {
  BroadcastEstimateResponse,
  BroadcastListResponse,
  BroadcastRow,
  BroadcastTotals,
  Contact,
  PhoneNumber,
  Segment,
  Tag,
  TemplateDetail,
  TemplateListItem,
} from '@herald/contracts';
import type { PreloadedState } from '../../../lib/store';
import { signedIn } from '../../../test/render-with-store';

const account = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
export const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [account], selectedWabaAccount: account },
};

export function templateItem(id: number, overrides: Partial<TemplateListItem> = {}): TemplateListItem {
  return {
    id,
    template_id: `meta-${id}`,
    template_name: `template_${id}`,
    category: 'MARKETING',
    language_code: 'en_US',
    status: 'APPROVED',
    rejected_reason: null,
    last_updated_time: '2025-01-15T10:30:00.000Z',
    quality_score: null,
    components: ['Body'],
    ...overrides,
  };
}

export const templates: TemplateListItem[] = [
  templateItem(1, { template_name: 'summer_sale' }),
  templateItem(2, { template_name: 'waiting_review', status: 'PENDING' }),
  templateItem(3, { template_name: 'order_update', language_code: 'en' }),
  templateItem(4, { template_name: 'old_draft', status: 'DRAFT', template_id: null }),
];

/** summer_sale: a dynamic header and a body mixing dynamic and static variables. */
export const summerSale: TemplateDetail = {
  id: 1,
  name: 'summer_sale',
  language: 'en_US',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, use code {{2}} at the shop near {{3}}.' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Shop now' }] },
  ],
  dynamic_variables: {
    header_variables: [{ '1': 'email' }],
    body_variable: { '1': 'name', '3': 'post_code' },
  },
  static_variables: { body_variable: [{ '2': 'SUMMER20' }] },
  media_url: null,
};

export const tags: Tag[] = [
  { id: 7, name: 'VIP', count: 120 },
  { id: 8, name: 'London', count: 45 },
  { id: 9, name: 'Newsletter', count: 1000 },
];

export function contact(id: number, overrides: Partial<Contact> = {}): Contact {
  return {
    id,
    recipient_name: `Person ${id}`,
    whatsapp_number: `+1415555${String(1000 + id).padStart(4, '0')}`,
    recipient_age: null,
    recipient_gender: null,
    recipient_address: null,
    recipient_post_code: null,
    recipient_email: null,
    tags: [],
    ...overrides,
  };
}

export const ana = contact(1, {
  recipient_name: 'Ana Lima',
  recipient_email: 'ana@example.com',
  recipient_post_code: '1000-001',
  recipient_age: 34,
});

export function row(id: number, overrides: Partial<BroadcastRow> = {}): BroadcastRow {
  return {
    id,
    name: `Broadcast ${id}`,
    scheduled: '2026-01-15T09:00:00.000Z',
    delivered_percentage: 80,
    read_percentage: 50,
    sent_percentage: 95,
    failed_percentage: 5,
    unknown_percentage: 0,
    limited_percentage: 0,
    not_on_whatsapp_percentage: 0,
    expired_percentage: 0,
    skipped_percentage: 0,
    replied_percentage: 0,
    handed_percentage: 0,
    all_handed: false,
    total_recipients: 200,
    status: 'completed',
    template_name: 'summer_sale',
    phone_number: '+1 555-0100',
    waiting_until: null,
    status_reason: null,
    ...overrides,
  };
}

export const totals: BroadcastTotals = {
  broadcasts: 12,
  recipients: 3000,
  scheduled_recipients: 0,
  sent: 2700,
  handed: 0,
  delivered: 2400,
  read: 1000,
  failed: 150,
  limited: 0,
  not_on_whatsapp: 0,
  expired: 0,
  skipped: 0,
  scheduled: 1,
  sending: 0,
};

export function listPage(
  results: BroadcastRow[],
  count = results.length,
  page = 1,
  pageTotals: BroadcastTotals = totals,
): BroadcastListResponse {
  return {
    count,
    next: page * 10 < count ? `http://localhost/broadcast/create/?page=${page + 1}` : null,
    previous: page > 1 ? `http://localhost/broadcast/create/?page=${page - 1}` : null,
    results,
    totals: pageTotals,
  };
}

export function phoneNumber(id: string, overrides: Partial<PhoneNumber> = {}): PhoneNumber {
  return {
    id,
    verified_name: 'Acme Shop',
    display_phone_number: `+1 555-01${id.slice(-2).padStart(2, '0')}`,
    code_verification_status: 'VERIFIED',
    quality_rating: 'GREEN',
    platform_type: 'CLOUD_API',
    throughput: { level: 'STANDARD' },
    last_onboarded_time: '2026-01-01T00:00:00.000Z',
    messaging_limit_tier: 'TIER_1K',
    status: 'CONNECTED',
    ...overrides,
  };
}

/** An estimate well inside the limit, for a marketing template with no US numbers. */
export function estimateAnswer(
  overrides: Partial<BroadcastEstimateResponse> = {},
): BroadcastEstimateResponse {
  return {
    recipients: 66,
    new_recipients: 66,
    us_numbers: 0,
    template_category: 'MARKETING',
    messaging_limit: { tier: 'TIER_1K', limit: 1000, reached: 200, left: 800, frees_at: null },
    left_out: { opted_out: 0, us_numbers: 0 },
    ...overrides,
  };
}

/** A saved segment, its rules said in two lines. */
export function segment(id: number, overrides: Partial<Segment> = {}): Segment {
  return {
    id,
    name: `Segment ${id}`,
    definition: {
      match: 'all',
      groups: [
        { match: 'any', rules: [{ kind: 'tags', match: 'any', tag_ids: [7] }] },
        { match: 'all', rules: [{ kind: 'engagement', event: 'read', did: true, within_days: 30 }] },
      ],
    },
    description: ['Tags: any of “VIP”', 'AND Read a broadcast in the last 30 days'],
    created_at: '2026-01-10T09:00:00.000Z',
    updated_at: '2026-01-10T09:00:00.000Z',
    ...overrides,
  };
}

export const segments: Segment[] = [
  segment(3, { name: 'VIP readers' }),
  segment(5, {
    name: 'Lapsed',
    description: ['Never read a broadcast'],
    definition: {
      match: 'all',
      groups: [{ match: 'all', rules: [{ kind: 'engagement', event: 'read', did: false }] }],
    },
  }),
];
