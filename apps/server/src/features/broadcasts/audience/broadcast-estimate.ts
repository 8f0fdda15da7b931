import {
  BROADCAST_MESSAGES,
  numberSendability,
  RECIPIENTS_REQUIRED,
  sampleSize,
  segmentDescription,
  type BroadcastEstimateRequest,
  type SegmentDefinition,
  type BroadcastEstimateResponse,
} from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { HttpError } from '../../../http-error';
import type { OwnedWaba } from '../../../owned-waba';
import { readAccountSettings } from '../../settings';
import { audienceByPrefix, cappedInAudience, optedOutInAudience, reachedInAudience } from './audience-counts';
import type { AudienceSource } from './audience-sql';
import { readMessagingLimit } from '../sending/messaging-limit';
import { retargetContactIds } from './retarget-audience';
import { checkDefinition, findSegment, segmentWhereSql } from '../../segments/index';

/**
 * The number a broadcast sends from: the one named by Meta's id, or the account's first. Another account's
 * number is not found (404, as for every resource of another account); one Meta does not let send (its stored
 * status) is refused with the reason New broadcast shows.
 */
export async function sendingNumber(pool: Pool, waba: OwnedWaba, phoneNumberId: string | undefined) {
  const { rows } = await pool.query<{
    id: number;
    status: string | null;
    quality_rating: string | null;
  }>(
    phoneNumberId === undefined
      ? 'select id::int, status, quality_rating from phone_numbers where waba_account_id = $1 order by id limit 1'
      : 'select id::int, status, quality_rating from phone_numbers where waba_account_id = $1 and phone_number_id = $2',
    phoneNumberId === undefined ? [waba.id] : [waba.id, phoneNumberId],
  );
  const phone = rows[0];
  if (!phone) {
    if (phoneNumberId === undefined) {
      throw HttpError.field(400, 'phone_number_id', 'This account has no WhatsApp number to send from');
    }
    throw HttpError.field(404, 'phone_number_id', 'No such WhatsApp number in this account');
  }
  const { sendable, reason } = numberSendability(phone);
  if (!sendable) throw HttpError.field(400, 'phone_number_id', reason!);
  return phone;
}

/** The account's template by Herald's id, with its category; 400 naming template_id when there is none. */
export async function findTemplate(pool: Pool, waba: OwnedWaba, templateId: number) {
  const { rows } = await pool.query<{
    id: number;
    name: string;
    language: string;
    status: string;
    category: string;
    components: Array<Record<string, unknown>>;
    message_send_ttl_seconds: number | null;
    max_price_bid_amount: number | null;
    pending_category: string | null;
    pending_category_at: Date | null;
  }>(
    `select id::int, name, language, status, category, components, message_send_ttl_seconds,
            max_price_bid_amount, pending_category, pending_category_at
       from templates where waba_account_id = $1 and id = $2`,
    [waba.id, templateId],
  );
  if (!rows[0]) throw HttpError.field(400, 'template_id', BROADCAST_MESSAGES.templateRequired);
  return rows[0];
}

/**
 * A template a broadcast can send: the account's (`missing` when not) and approved, refused naming `field`
 * (the broadcast's `template_id` or its follow-up's).
 */
export async function findSendableTemplate(
  pool: Pool,
  waba: OwnedWaba,
  templateId: number,
  field: string,
  missing: string = BROADCAST_MESSAGES.templateRequired,
) {
  const template = await findTemplate(pool, waba, templateId).catch((error: unknown) => {
    throw error instanceof HttpError ? HttpError.field(400, field, missing) : error;
  });
  if (template.status !== 'APPROVED') {
    throw HttpError.field(
      400,
      field,
      `Template ${template.name} is ${template.status}: only approved templates can be sent`,
    );
  }
  return template;
}

/**
 * The category a broadcast of `template` starting at `start` is sent in: the one Meta announced
 * (template_category_update) when the broadcast starts at or after its date (or Meta gave none), else the
 * current one. The estimate's price and the US marketing rule follow it, as the sender's routing will.
 */
export function categoryAt(
  template: { category: string; pending_category: string | null; pending_category_at: Date | null },
  start: Date,
): string {
  if (!template.pending_category) return template.category;
  const at = template.pending_category_at;
  return at === null || at.getTime() <= start.getTime() ? template.pending_category : template.category;
}

/** The request's tags, each once, all of the account (400 naming recipients.tag_ids otherwise); null for everyone. */
export async function audienceTags(
  pool: Pool,
  waba: OwnedWaba,
  recipients: NonNullable<BroadcastEstimateRequest['recipients']>,
): Promise<number[] | null> {
  if (recipients.type !== 'filtered') return null;
  const tagIds = [...new Set(recipients.tag_ids)];
  const found = await pool.query('select 1 from tags where waba_account_id = $1 and id = any($2::bigint[])', [
    waba.id,
    tagIds,
  ]);
  if (found.rowCount !== tagIds.length) {
    throw HttpError.field(400, 'recipients.tag_ids', 'One or more tags do not exist in this account');
  }
  return tagIds;
}

const SEGMENT_WITH_LIST =
  'A segment cannot be combined with an earlier broadcast’s recipients: choose one or the other';

/** A segment as a broadcast keeps it: its rules and their words as they are when the broadcast is created. */
export interface SegmentSnapshot {
  id: number;
  name: string;
  definition: SegmentDefinition;
  rules: string[];
}

async function segmentSnapshot(pool: Pool, accountId: number, id: number): Promise<SegmentSnapshot> {
  const segment = await findSegment(pool, accountId, id);
  if (!segment)
    throw HttpError.field(400, 'recipients.segment_id', 'This segment does not exist in this account');
  // Rules naming a tag, column or broadcast deleted since the segment was saved are refused, not half-applied.
  const names = await checkDefinition(pool, accountId, segment.definition, 'definition').catch(
    (error: unknown) => {
      if (!(error instanceof HttpError)) throw error;
      throw HttpError.field(
        400,
        'recipients.segment_id',
        `The segment ${segment.name} no longer applies: ${error.message}. Edit it under Customers → Segments.`,
      );
    },
  );
  return {
    id: segment.id,
    name: segment.name,
    definition: segment.definition,
    rules: segmentDescription(segment.definition, names),
  };
}

/**
 * The request's audience: all or tagged contacts with the percentage (sampled when the broadcast starts), or a
 * retarget list resolved now and sent whole; with both, the list narrowed by the tags and sampled now
 * (decision 037). The contract lets no request through without one of them.
 */
export async function requestAudience(
  pool: Pool,
  waba: OwnedWaba,
  request: Pick<BroadcastEstimateRequest, 'recipients' | 'audience'>,
): Promise<{ source: AudienceSource; percentage: number; segment?: SegmentSnapshot }> {
  const { recipients, audience } = request;
  if (!recipients && !audience) throw HttpError.field(400, 'recipients', RECIPIENTS_REQUIRED);
  if (recipients?.type === 'segment') {
    if (audience) throw HttpError.field(400, 'recipients', SEGMENT_WITH_LIST);
    const segment = await segmentSnapshot(pool, waba.id, recipients.segment_id);
    return {
      source: { kind: 'segment', where: segmentWhereSql(segment.definition, 'c') },
      percentage: recipients.percentage,
      segment,
    };
  }
  const tagIds = recipients ? await audienceTags(pool, waba, recipients) : null;
  if (audience) {
    const narrow = { tagIds, percentage: recipients?.percentage ?? 100 };
    return {
      source: { kind: 'list', contactIds: await retargetContactIds(pool, waba, audience, narrow) },
      percentage: 100,
    };
  }
  return { source: { kind: 'tags', tagIds }, percentage: recipients!.percentage };
}

/**
 * What a broadcast to this audience would take: its recipients after the percentage (and the US leave-out,
 * which applies to marketing templates only, decision 026), how many are new to the 24-hour window, how many
 * have +1 numbers, and the portfolio's limit. A percentage samples a hash order fixed only when the broadcast
 * starts, so below 100 % the new and US figures are the audience's shares scaled by it.
 * Herald stores no inbound messages yet, so every recipient counts against the limit (none is known to be in a
 * customer service window).
 */
export async function estimateAudience(
  pool: Pool,
  waba: OwnedWaba,
  input: { source: AudienceSource; percentage: number; category: string | null; leaveOutUs: boolean },
): Promise<BroadcastEstimateResponse> {
  const marketing = input.category?.toUpperCase() === 'MARKETING';
  const leaveOut = marketing && input.leaveOutUs;
  // Counted by prefix (kept counts for everyone and one tag), and the window's numbers looked up in the audience
  // (audience-counts.ts): one pass over a million contacts' rows took 0.8–1.3 s.
  // The groups keep the US numbers in, so the figures can say how many the leave-out takes.
  const [groups, reached, optedOut, limit, frequencyCap] = await Promise.all([
    audienceByPrefix(pool, waba.id, input.source, false),
    reachedInAudience(pool, waba.id, input.source, leaveOut),
    optedOutInAudience(pool, waba.id, input.source),
    readMessagingLimit(pool, waba.id),
    marketing ? frequencyCapOf(pool, waba.id, input.source, leaveOut) : null,
  ]);
  const us = groups.reduce((sum, group) => sum + group.us, 0);
  const total = groups.reduce((sum, group) => sum + group.n, 0) - (leaveOut ? us : 0);
  const fresh = total - reached;
  const recipients = sampleSize(total, input.percentage);
  return {
    recipients,
    new_recipients: Math.min(recipients, sampleSize(fresh, input.percentage)),
    us_numbers: marketing && !leaveOut ? Math.min(recipients, sampleSize(us, input.percentage)) : 0,
    template_category: input.category,
    messaging_limit: limit,
    left_out: { opted_out: optedOut, us_numbers: leaveOut ? us : 0 },
    frequency_cap: frequencyCap && {
      ...frequencyCap,
      skipped: Math.min(recipients, sampleSize(frequencyCap.skipped, input.percentage)),
    },
  };
}

/**
 * The account's frequency cap and how many of the audience it would skip now (decision 098); null when the
 * account has no cap. Below 100 % the skipped share is scaled like the other figures.
 */
async function frequencyCapOf(pool: Pool, accountId: number, source: AudienceSource, leaveOutUs: boolean) {
  const settings = await readAccountSettings(pool, accountId);
  if (settings.frequency_cap_messages === null) return null;
  const cap = { messages: settings.frequency_cap_messages, days: settings.frequency_cap_days };
  return { ...cap, skipped: await cappedInAudience(pool, accountId, source, leaveOutUs, cap) };
}

/** POST /broadcast/estimate/: the figures New broadcast shows, from the same rules create uses. */
export async function estimateBroadcast(
  pool: Pool,
  waba: OwnedWaba,
  request: BroadcastEstimateRequest,
): Promise<BroadcastEstimateResponse> {
  const template =
    request.template_id === undefined ? null : await findTemplate(pool, waba, request.template_id);
  if (request.phone_number_id !== undefined) await sendingNumber(pool, waba, request.phone_number_id);
  const { source, percentage } = await requestAudience(pool, waba, request);
  return estimateAudience(pool, waba, {
    source,
    percentage,
    category: template
      ? categoryAt(template, new Date(request.scheduled_time ? request.scheduled_time * 1000 : Date.now()))
      : null,
    leaveOutUs: request.leave_out_us_numbers,
  });
}
