import { failureError } from './message-errors';
import type { FailureKind } from './message-errors';
import type { StatusName } from './status-plan';
import { isBsuid } from './bsuid';
import { maxPriceCharge } from '../templates/max-price';

/** What a status webhook needs to know about the message it reports on. */
export interface MessageInfo {
  wamid: string;
  phoneNumberId: string;
  wabaId: string;
  /** The business number's digits (`metadata.display_phone_number`). */
  displayDigits: string;
  recipient: string;
  bizOpaqueCallbackData: string | null;
  /** The template's category in lower case (`service` for any other message): origin and pricing category. */
  category: string;
  conversationId: string;
  /** The template sent (template analytics counts its statuses); absent for other messages and older files. */
  templateId?: string;
  /** The user's BSUID when the message went to a phone number (absent in state files older than it). */
  recipientUserId?: string;
  /** Why its `failed` status fails; absent (state files of earlier runs too) means undeliverable. */
  failure?: FailureKind;
  /** Its max price per delivery (templates/max-price.ts), in the WABA's currency: MM API sends of such a template. */
  maxPrice?: number;
}

export interface StatusEvent {
  message: MessageInfo;
  status: StatusName;
  timestamp: number;
}

const CONVERSATION_SECONDS = 24 * 60 * 60;

/** The category of a message that is not a template: a reply in a customer service window, which is free. */
export const SERVICE_CATEGORY = 'service';

/**
 * Meta: with a max price, the delivered (and read) status's `pricing` carries `cost: {amount, currency}`, the
 * estimated charge in currency units. The sandbox posts pricing on sent and delivered only, so the cost rides
 * on delivered; the sandbox's WABAs are all billed in USD.
 */
function deliveredCost(message: MessageInfo, status: StatusName) {
  const amount = status === 'delivered' ? maxPriceCharge(message) : undefined;
  return amount === undefined ? {} : { cost: { amount, currency: 'USD' } };
}

/** One entry of `value.statuses[]`, as Meta sends it: every timestamp a string. */
export function statusObject(event: StatusEvent) {
  const { message, status, timestamp } = event;
  const billed = status === 'sent' || status === 'delivered';
  return {
    id: message.wamid,
    status,
    timestamp: String(timestamp),
    // A user known by BSUID only: Meta names them by `recipient_user_id` and leaves the number out. Sent to a
    // number, a status names the user's BSUID too (Meta, since 2026), except a failed one.
    ...(isBsuid(message.recipient)
      ? { recipient_user_id: message.recipient }
      : {
          recipient_id: message.recipient,
          ...(message.recipientUserId && status !== 'failed'
            ? { recipient_user_id: message.recipientUserId }
            : {}),
        }),
    ...(message.bizOpaqueCallbackData === null
      ? {}
      : { biz_opaque_callback_data: message.bizOpaqueCallbackData }),
    ...(billed
      ? {
          conversation: {
            id: message.conversationId,
            ...(status === 'sent' ? { expiration_timestamp: String(timestamp + CONVERSATION_SECONDS) } : {}),
            origin: { type: message.category },
          },
          pricing:
            message.category === SERVICE_CATEGORY
              ? { billable: false, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' }
              : {
                  billable: true,
                  pricing_model: 'PMP',
                  category: message.category,
                  type: 'regular',
                  ...deliveredCost(message, status),
                },
        }
      : {}),
    ...(status === 'failed' ? { errors: [failureError(message.failure ?? 'undeliverable')] } : {}),
  };
}

/** `value.metadata` of every `messages` notification: the business number it concerns. */
export function metadata(message: Pick<MessageInfo, 'displayDigits' | 'phoneNumberId'>) {
  return { display_phone_number: message.displayDigits, phone_number_id: message.phoneNumberId };
}

/**
 * Since 2026 Meta lists the users of sent, delivered and read statuses in `contacts[]` (their number when the
 * message went to one, and their BSUID); a failed status adds no one.
 */
function contactsOf(events: StatusEvent[]) {
  const contacts = new Map<string, { wa_id?: string; user_id: string }>();
  for (const { message, status } of events) {
    if (status === 'failed') continue;
    if (isBsuid(message.recipient)) contacts.set(message.recipient, { user_id: message.recipient });
    else if (message.recipientUserId) {
      contacts.set(message.recipient, { wa_id: message.recipient, user_id: message.recipientUserId });
    }
  }
  return contacts.size === 0 ? {} : { contacts: [...contacts.values()] };
}

/** One `messages` notification for statuses of one WABA: a change per phone number, in event order. */
export function statusesPayload(wabaId: string, events: StatusEvent[]) {
  const byNumber = new Map<string, StatusEvent[]>();
  for (const event of events) {
    const list = byNumber.get(event.message.phoneNumberId);
    if (list) list.push(event);
    else byNumber.set(event.message.phoneNumberId, [event]);
  }
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        changes: [...byNumber.values()].map((list) => ({
          value: {
            messaging_product: 'whatsapp',
            metadata: metadata((list[0] as StatusEvent).message),
            ...contactsOf(list),
            statuses: list.map(statusObject),
          },
          field: 'messages',
        })),
      },
    ],
  };
}

export interface InboundMessage {
  wabaId: string;
  phoneNumberId: string;
  displayDigits: string;
  /** The sender's digits; null for a user known only by BSUID. */
  from: string | null;
  /** The sender's BSUID, when the inbound names one. */
  userId?: string | null;
  username?: string | null;
  profileName: string;
  wamid: string;
  timestamp: number;
  /** A typed text, or a quick-reply tap on a template's button. */
  content:
    | { type: 'text'; body: string }
    | { type: 'button'; payload: string; text: string; contextId: string | null };
}

/** A message from a person to the business number, as Meta notifies it. */
export function inboundPayload(inbound: InboundMessage) {
  const { content } = inbound;
  const message = {
    ...(inbound.from === null ? {} : { from: inbound.from }),
    ...(inbound.userId ? { from_user_id: inbound.userId } : {}),
    id: inbound.wamid,
    timestamp: String(inbound.timestamp),
    ...(content.type === 'text'
      ? { type: 'text', text: { body: content.body } }
      : {
          ...(content.contextId === null
            ? {}
            : { context: { from: inbound.displayDigits, id: content.contextId } }),
          type: 'button',
          button: { payload: content.payload, text: content.text },
        }),
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: inbound.wabaId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: metadata(inbound),
              contacts: [
                {
                  profile: {
                    name: inbound.profileName,
                    ...(inbound.username ? { username: inbound.username } : {}),
                  },
                  ...(inbound.from === null ? {} : { wa_id: inbound.from }),
                  ...(inbound.userId ? { user_id: inbound.userId } : {}),
                },
              ],
              messages: [message],
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}
