import type { Pool } from '../../../db/pool';
import { isBsuidAddress } from '../../contacts';
import type { MessageSender } from './message-sender';
import { markSending, type Claimed } from '../message-rows';
import { renderMessage, type SendableTemplate } from './render-message';

/** Message rows a sender claims and sends at a time. */
export const BATCH = 200;

export type { Claimed } from '../message-rows';

/** What one sender run of one number keeps between batches. */
export interface SendContext {
  /** The number's row id (phone_numbers.id). */
  phoneId: number;
  /** The business account the number belongs to: the first column of every message row's key (decision 056). */
  accountId: number;
  token: string;
  phoneNumberId: string;
  /** The business portfolio whose 24-hour messaging limit this number's sends count against (decision 027). */
  portfolio: string;
  templates: Map<number, SendableTemplate>;
  /** Herald's template_media id → the media id uploaded to this number, for this sender run. */
  media: Map<number, string>;
  mps: number;
  /** Broadcasts of an authentication template, which Meta refuses to send to a BSUID (decision 050). */
  authentication?: Set<number>;
  /** A message row's tracked-link token (link-clicks' linkToken), for broadcasts that count clicks. */
  linkToken?: (messageId: number) => string;
}

/** Refused per recipient rather than sent for Meta to refuse: an authentication template cannot go to a BSUID. */
const AUTHENTICATION_TO_BSUID =
  'Authentication templates cannot be sent to a customer known only by username';

/**
 * Where a send goes: `to` with a number, or `recipient` with the BSUID of a customer known only by it (Meta drops
 * a BSUID given as `to`; with both, `to` wins, so never both).
 */
export function addressee(address: string): { to: string } | { recipient: string } {
  return isBsuidAddress(address) ? { recipient: address } : { to: address.replace(/^\+/, '') };
}

/**
 * Claims the number's next batch: queued rows of its sending broadcasts that are due, in the order the
 * broadcasts started (then by id), so after a restart an interrupted broadcast goes on before one that started
 * later, whatever their ids (one scheduled long ahead has the smaller id); marked `sending` (FOR UPDATE SKIP
 * LOCKED, so concurrent claimers never share a row; message-rows.ts), with the contact's current values for rendering.
 * Claimed is not requested: the sender marks rows requested just before their
 * requests go out (request-marks.ts), so a dead sender's unrequested rows go back to the queue.
 */
export async function claimBatch(pool: Pool, phoneId: number): Promise<Claimed[]> {
  return markSending(pool, phoneId, BATCH);
}

/**
 * The templates of a batch's broadcasts, once per sender run. A media header is uploaded to the number once
 * (Meta names media for sending by an id of that number's; the review handle cannot be sent).
 */
export async function loadTemplates(
  deps: { pool: Pool; sender: MessageSender },
  context: SendContext,
  batch: Claimed[],
): Promise<void> {
  const missing = [...new Set(batch.map((m) => m.broadcast_id))].filter((id) => !context.templates.has(id));
  if (missing.length === 0) return;
  const { rows } = await deps.pool.query<{
    broadcast_id: number;
    name: string;
    language: string;
    components: Array<Record<string, unknown>> | null;
    static_variables: unknown;
    dynamic_variables: unknown;
    media_id: number | null;
    category: string | null;
    link_button_index: number | null;
  }>(
    `select b.id::int as broadcast_id, b.template_name as name, b.template_language as language, t.components,
            t.static_variables, t.dynamic_variables, t.media_id::int, t.category, b.link_button_index
       from broadcasts b left join templates t on t.id = b.template_id where b.id = any($1::bigint[])`,
    [missing],
  );
  for (const row of rows) {
    if (row.category?.toUpperCase() === 'AUTHENTICATION')
      (context.authentication ??= new Set()).add(row.broadcast_id);
    context.templates.set(row.broadcast_id, {
      name: row.name,
      language: row.language,
      components: row.components ?? [],
      staticVariables: row.static_variables,
      dynamicVariables: row.dynamic_variables,
      mediaId: row.media_id === null ? null : await uploadedMedia(deps, context, row.media_id),
      linkButtonIndex: row.link_button_index,
    });
  }
}

async function uploadedMedia(
  deps: { pool: Pool; sender: MessageSender },
  context: SendContext,
  mediaId: number,
): Promise<string | null> {
  const known = context.media.get(mediaId);
  if (known) return known;
  const { rows } = await deps.pool.query<{ content: Buffer; mime_type: string; file_name: string }>(
    'select content, mime_type, file_name from template_media where id = $1',
    [mediaId],
  );
  const file = rows[0];
  if (!file) return null;
  const id = await deps.sender.uploadMedia(context.token, context.phoneNumberId, {
    bytes: file.content,
    mimeType: file.mime_type,
    fileName: file.file_name,
  });
  context.media.set(mediaId, id);
  return id;
}

/** The `template` object of one message's send request, or why it cannot be sent. */
export function renderClaimed(context: SendContext, message: Claimed) {
  const template = context.templates.get(message.broadcast_id);
  if (!template?.components.length) return { ok: false as const, reason: 'The template no longer exists' };
  if (context.authentication?.has(message.broadcast_id) && isBsuidAddress(message.whatsapp_number))
    return { ok: false as const, reason: AUTHENTICATION_TO_BSUID };
  const token =
    template.linkButtonIndex !== null && template.linkButtonIndex !== undefined
      ? context.linkToken?.(message.id)
      : undefined;
  const rendered = renderMessage(template, message.contact ?? {}, token);
  if (!rendered.ok) return rendered;
  return {
    ok: true as const,
    template: {
      name: template.name,
      language: { code: template.language },
      components: rendered.components,
    },
  };
}
