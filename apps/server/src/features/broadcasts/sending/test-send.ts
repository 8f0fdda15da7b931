import {
  failureReason,
  normalizePhoneNumber,
  TEST_SEND,
  trackedButtonIndex,
  type BroadcastTestRequest,
  type BroadcastTestResponse,
} from '@herald/contracts';
import type { Pool } from '../../../db/pool';
import { HttpError } from '../../../http-error';
import type { SecretBox } from '../../../security/secret-box';
import type { OwnedWaba } from '../../../owned-waba';
import { findTemplate, sendingNumber } from '../audience/broadcast-estimate';
import { TEST_LINK_TOKEN } from '../../../security/link-token';
import { forgetMmApiStatus, templateEndpoint } from '../../marketing-messages/index';
import type { MessageSender } from './message-sender';
import { PORTFOLIO_OF_WABA, reserveReach } from './messaging-limit';
import { renderMessage, type ContactValues } from './render-message';

/**
 * 'Send test' on New broadcast (decision 037): the chosen template, filled with one real
 * contact's values, to one number the user typed, from the chosen number, through the same Cloud API client the
 * engine sends with. Not a broadcast: no broadcast or message row is written, so the history never counts it.
 * It is a business-initiated message, so it takes its place in the portfolio's 24-hour messaging limit like any
 * other, and an account may send TEST_SEND.perMinute a minute (counted in Postgres, decision 008).
 */
export class TestSendService {
  constructor(
    private readonly deps: {
      pool: Pool;
      sender: MessageSender;
      secrets: SecretBox;
      trackedLinkPrefix?: string;
    },
  ) {}

  async send(waba: OwnedWaba, request: BroadcastTestRequest): Promise<BroadcastTestResponse> {
    const { pool } = this.deps;
    const template = await findTemplate(pool, waba, request.template_id);
    if (template.status !== 'APPROVED') {
      throw HttpError.field(
        400,
        'template_id',
        `Template ${template.name} is ${template.status}: only approved templates can be sent`,
      );
    }
    const phone = await sendingNumber(pool, waba, request.phone_number_id);
    const to = normalizePhoneNumber(request.to);
    if (!to.ok) throw HttpError.field(400, 'to', to.message);
    const contact = await this.contact(waba, request.contact_id);
    const stored = await this.template(template.id);
    // A tracked link button opens Herald's test page: no recipient, no click to count, no destination yet.
    const linkButtonIndex = this.deps.trackedLinkPrefix
      ? trackedButtonIndex(stored.components, this.deps.trackedLinkPrefix)
      : null;
    const linkToken = linkButtonIndex === null ? undefined : TEST_LINK_TOKEN;
    const rendered = renderMessage(
      {
        ...stored,
        linkButtonIndex,
        mediaId: null,
        mediaLink: null,
        name: template.name,
        language: template.language,
      },
      contact.values,
      linkToken,
    );
    // A media header is checked below, once uploaded; any other problem is the contact's values.
    if (!rendered.ok && stored.mediaRowId === null) throw HttpError.field(400, 'contact_id', rendered.reason);

    await this.reserveAttempt(waba);
    const { rows } = await pool.query<{ phone_number_id: string; portfolio: string }>(
      `select p.phone_number_id, ${PORTFOLIO_OF_WABA} as portfolio
         from phone_numbers p join waba_accounts w on w.id = p.waba_account_id where p.id = $1`,
      [phone.id],
    );
    const { phone_number_id: phoneNumberId, portfolio } = rows[0]!;
    const token = this.deps.secrets.open(waba.businessTokenEncrypted);
    const mediaId =
      stored.mediaRowId === null ? null : await this.upload(token, phoneNumberId, stored.mediaRowId);
    const message = renderMessage(
      { ...stored, linkButtonIndex, mediaId, name: template.name, language: template.language },
      contact.values,
      linkToken,
    );
    if (!message.ok) throw HttpError.field(400, 'contact_id', message.reason);

    const { allowed } = await reserveReach(pool, portfolio, [to.e164]);
    if (!allowed.has(to.e164)) throw HttpError.field(429, 'to', TEST_SEND.overLimit);

    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: to.e164.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        components: message.components,
      },
    };
    // Where the broadcast's messages would go: a test of a marketing template goes through the MM API too.
    const endpoint = await templateEndpoint(pool, waba.id, template.id);
    let outcome = await this.deps.sender.send(token, phoneNumberId, body, endpoint);
    if (outcome.kind === 'retry' && outcome.mmApiRefused) {
      await forgetMmApiStatus(pool, waba.id);
      outcome = await this.deps.sender.send(token, phoneNumberId, body);
    }
    const base = { to: to.e164, contact: contact.summary };
    if (outcome.kind === 'accepted' || outcome.kind === 'held') {
      return { ...base, accepted: true, wamid: outcome.wamid, error: null };
    }
    const code = 'code' in outcome ? outcome.code : null;
    const reason = failureReason(code, outcome.title);
    return {
      ...base,
      accepted: false,
      wamid: null,
      error: { code, title: outcome.title, explanation: reason.explanation, action: reason.action },
    };
  }

  /** The contact whose values fill the template: the one asked for, else the account's first. */
  private async contact(waba: OwnedWaba, contactId: number | undefined) {
    const { rows } = await this.deps.pool.query<{
      id: number;
      name: string;
      whatsapp_number: string;
      values: ContactValues;
    }>(
      `select c.id::int, c.name, c.whatsapp_number,
              jsonb_build_object('name', c.name, 'whatsapp_number', c.whatsapp_number, 'age', c.age,
                'gender', c.gender, 'address', c.address, 'post_code', c.post_code, 'email', c.email)
                || c.attributes as values
         from contacts c
        where c.waba_account_id = $1 and ($2::bigint is null or c.id = $2)
        order by c.id limit 1`,
      [waba.id, contactId ?? null],
    );
    const row = rows[0];
    if (!row) {
      if (contactId !== undefined) throw HttpError.field(404, 'contact_id', 'Contact not found');
      throw HttpError.field(400, 'contact_id', TEST_SEND.noContact);
    }
    return {
      values: row.values,
      summary: { id: row.id, name: row.name, whatsapp_number: row.whatsapp_number },
    };
  }

  private async template(id: number) {
    const { rows } = await this.deps.pool.query<{
      components: Array<Record<string, unknown>> | null;
      static_variables: unknown;
      dynamic_variables: unknown;
      media_id: number | null;
    }>('select components, static_variables, dynamic_variables, media_id::int from templates where id = $1', [
      id,
    ]);
    const row = rows[0]!;
    return {
      components: row.components ?? [],
      staticVariables: row.static_variables,
      dynamicVariables: row.dynamic_variables,
      mediaRowId: row.media_id,
    };
  }

  /** The header media uploaded to the sending number: Meta sends media by an id of that number's. */
  private async upload(token: string, phoneNumberId: string, mediaRowId: number): Promise<string | null> {
    const { rows } = await this.deps.pool.query<{ content: Buffer; mime_type: string; file_name: string }>(
      'select content, mime_type, file_name from template_media where id = $1',
      [mediaRowId],
    );
    const file = rows[0];
    if (!file) return null;
    return this.deps.sender.uploadMedia(token, phoneNumberId, {
      bytes: file.content,
      mimeType: file.mime_type,
      fileName: file.file_name,
    });
  }

  /** One of the account's TEST_SEND.perMinute test sends, reserved atomically (migration 010's counters). */
  private async reserveAttempt(waba: OwnedWaba): Promise<void> {
    const { rows } = await this.deps.pool.query<{ reserved: boolean; retry_after_seconds: number }>(
      `select reserved, retry_after_seconds from reserve_attempt('test_send', '{account}', array[$1::text], $2, 60)`,
      [String(waba.id), [TEST_SEND.perMinute]],
    );
    const answer = rows[0]!;
    if (!answer.reserved) {
      const message = TEST_SEND.rateLimited(answer.retry_after_seconds);
      throw new HttpError(429, message, [{ field: 'to', message }], {
        'retry-after': String(answer.retry_after_seconds),
      });
    }
  }
}
