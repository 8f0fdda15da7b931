/** The `value` of a `messages` webhook change (facts §5): delivery statuses and inbound messages. */
export interface MessagesValue {
  statuses?: MessageStatus[];
  messages?: InboundMessage[];
}

export interface MessageStatus {
  /** The wamid. */
  id?: string;
  status?: string;
  recipient_id?: string;
  biz_opaque_callback_data?: string;
  errors?: Array<{ code?: number; title?: string; message?: string }>;
}

export interface InboundMessage {
  from?: string;
  type?: string;
  text?: { body?: string };
  button?: { payload?: string; text?: string };
}
