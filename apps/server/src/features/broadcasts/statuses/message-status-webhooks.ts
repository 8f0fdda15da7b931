import type { PoolClient } from 'pg';
import { lockMessageRows, type MessageRowKey } from '../../../db/message-row-locks';
import type {
  MessageStatus,
  MessagesValue,
  WebhookBatch,
  WebhookChange,
  WebhookHandler,
} from '../../webhooks';
import { lockBroadcasts, markCountsStale } from '../broadcast-counts';
import {
  applyStatuses,
  recordReplies,
  STATUS_TARGETS_SQL,
  statusParams,
  type IncomingStatus,
} from '../message-rows';
import { replyTargets, type NewInbound } from './reply-links';
import { broadcastsToPause, pauseLockedBroadcasts, type TemplatePause } from '../sending/template-pause';

/** How far a status takes a message: a status only ever moves a row to a higher rank (decision 022). */
const RANK: Record<string, number> = { sent: 1, delivered: 2, read: 3, failed: 10 };

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const int32 = (value: unknown) =>
  Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? (value as number) : null;

/** A pricing word as Meta writes them (`marketing_lite`, `free_entry_point`, `PMP`); anything else is dropped. */
const pricingWord = (value: unknown) =>
  typeof value === 'string' && /^[A-Za-z_]{1,40}$/.test(value) ? value : null;

function incoming(wabaId: string, status: MessageStatus & { pricing?: unknown }): IncomingStatus {
  const error = Array.isArray(status.errors) ? status.errors[0] : undefined;
  const pricing = (status.pricing && typeof status.pricing === 'object' ? status.pricing : {}) as Record<
    string,
    unknown
  >;
  return {
    wabaId,
    rowId: text(status.biz_opaque_callback_data),
    wamid: text(status.id),
    status: status.status!,
    code: status.status === 'failed' ? int32(error?.code) : null,
    title: status.status === 'failed' ? (text(error?.title) ?? text(error?.message) ?? 'Failed') : null,
    billable: typeof pricing.billable === 'boolean' ? pricing.billable : null,
    pricingModel: pricingWord(pricing.pricing_model),
    pricingCategory: pricingWord(pricing.category),
    pricingType: pricingWord(pricing.type),
    pricingCost: statedCost(pricing.cost),
    at: unixSeconds(status.timestamp),
  };
}

/** `pricing.cost` as Meta documents it for max-price messages: `{amount, currency}`; only USD is Herald's. */
function statedCost(value: unknown): number | null {
  if (!value || typeof value !== 'object') return null;
  const { amount, currency } = value as { amount?: unknown; currency?: unknown };
  const number = typeof amount === 'string' && /^\d{1,6}(\.\d{1,6})?$/.test(amount) ? Number(amount) : amount;
  return currency === 'USD' &&
    typeof number === 'number' &&
    Number.isFinite(number) &&
    number >= 0 &&
    number < 1e6
    ? Math.round(number * 1e6) / 1e6
    : null;
}

/** Meta's `timestamp`: Unix seconds as a string of digits (a number is taken too); anything else is null. */
function unixSeconds(value: unknown): number | null {
  const seconds = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  return Number.isSafeInteger(seconds) && (seconds as number) >= 0 ? (seconds as number) : null;
}

/**
 * `messages` webhooks: delivery statuses of broadcast messages, found by `biz_opaque_callback_data` (the row
 * id Herald sent) or the wamid, and only within the WABA the entry names. States only move forward, so
 * duplicates and out-of-order deliveries change nothing; an unconfirmed or unknown row is settled by its first
 * status. Each event only collects its statuses: the batch applies them all at its end in one statement, taking
 * its locks in the one order every writer uses (broadcast rows, then message rows, each by id; decision 022),
 * so concurrent batches and the senders' settles cannot deadlock; then it marks the broadcasts' counters stale.
 */
export const applyMessageStatuses: WebhookHandler = async (_client, change, batch) => {
  const statuses = statusesOf(change);
  if (statuses.length === 0) return;
  broadcastWrites(batch).statuses.push(...statuses);
};

/** The statuses of one `messages` change this applier acts on (the repair sweep reads stored events with it). */
export function statusesOf(change: WebhookChange): IncomingStatus[] {
  return ((change.value as MessagesValue | undefined)?.statuses ?? [])
    .filter((s) => typeof s?.status === 'string' && RANK[s.status] !== undefined)
    .map((s) => incoming(change.wabaId, s));
}

/**
 * Applies statuses as a webhook batch applies them at its end (same lock order, same rules): the repair sweep
 * (status-repair.ts) re-applies through it the statuses rows stand below, so statuses have one writer.
 */
export async function reapplyStatuses(client: PoolClient, statuses: IncomingStatus[]): Promise<void> {
  await applyBroadcastWrites(client, { statuses, pauses: [], replies: [] });
}

/** What a webhook batch writes to broadcasts and their messages, applied once at its end under one lock order. */
interface BroadcastWrites {
  statuses: IncomingStatus[];
  /** Template status webhooks that pause broadcasts (template-pause-webhooks.ts). */
  pauses: TemplatePause[];
  /** Customers' messages to link to the broadcast messages they answer (replies/inbound-webhooks.ts; reply-links.ts). */
  replies: NewInbound[];
}

/** This batch's broadcast writes: status webhooks and template pauses share one end-of-batch step. */
export function broadcastWrites(batch: WebhookBatch): BroadcastWrites {
  return batch.collect(
    'broadcast-writes',
    () => ({ statuses: [], pauses: [], replies: [] }),
    applyBroadcastWrites,
  );
}

/**
 * Finds what the batch touches with plain reads, locks those broadcasts in id order, pauses the ones a template
 * pause stops, then updates the message rows (each in id order; message-rows.ts) and marks their counters stale:
 * one lock order (decision 022).
 */
async function applyBroadcastWrites(client: PoolClient, writes: BroadcastWrites): Promise<void> {
  const pausing = await broadcastsToPause(client, writes.pauses);
  const targets = await statusTargets(client, writes.statuses);
  const answered = await replyTargets(client, writes.replies);
  if (pausing.length === 0 && targets.length === 0 && answered.length === 0) return;
  const rows = [...targets, ...answered];
  await lockBroadcasts(client, [...pausing.map((p) => p.id), ...rows.map((r) => r.broadcastId)]);
  // A category change may hold a broadcast still waiting for its time (broadcastsToPause).
  await pauseLockedBroadcasts(client, pausing, ['sending', 'paused', 'scheduled']);
  // The statuses' and the replies' rows in one statement, so they too are locked in one id order.
  await lockMessageRows(client, rows);
  if (targets.length > 0) {
    // The update reads the locked rows as they are now; a row found only now (by a wamid the sender wrote
    // meanwhile) is left to the repair sweep rather than written unlocked.
    await applyStatuses(
      client,
      writes.statuses,
      targets.map((t) => t.id),
    );
    await markCountsStale(client, [...new Set(targets.map((t) => t.broadcastId))]);
  }
  // After the statuses, so a reply and its message's 'sent' in one batch link whatever their order.
  await recordReplies(client, writes.replies, answered);
}

/** The message rows the statuses name, within the WABA each entry names. A plain read: no lock yet. */
async function statusTargets(client: PoolClient, statuses: IncomingStatus[]): Promise<StatusTarget[]> {
  if (statuses.length === 0) return [];
  const { rows } = await client.query<StatusTarget>(
    `${STATUS_TARGETS_SQL} select id::int, waba_account_id::int as "accountId", broadcast_id::int as "broadcastId" from best`,
    statusParams(statuses),
  );
  return rows;
}

interface StatusTarget extends MessageRowKey {
  broadcastId: number;
}
