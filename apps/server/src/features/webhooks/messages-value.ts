/** The `value` of a `messages` webhook change as Meta documents it: delivery statuses and inbound messages. */
export interface MessagesValue {
  statuses?: MessageStatus[];
  messages?: InboundMessage[];
}

export interface MessageStatus {
  /** The wamid. */
  id?: string;
  status?: string;
  recipient_id?: string;
  /** The recipient's business-scoped user id (decision 050); alone when WhatsApp hides the number. */
  recipient_user_id?: string;
  biz_opaque_callback_data?: string;
  /** When it happened: Unix seconds, as a string. */
  timestamp?: string;
  errors?: Array<{ code?: number; title?: string; message?: string }>;
}

export interface InboundMessage {
  from?: string;
  /** The sender's business-scoped user id (decision 050); alone when WhatsApp hides the number. */
  from_user_id?: string;
  type?: string;
  text?: { body?: string };
  button?: { payload?: string; text?: string };
}
