// What other features use of the webhooks feature: the shapes their handlers take (decision 071: features meet
// only through index.ts). The processor with every handler is built in src/webhook-handlers.ts, outside the features.
export type { InboundMessage, MessageStatus, MessagesValue } from './messages-value';
export type { WebhookBatch, WebhookChange, WebhookHandler } from './webhook-processor';
export { WebhookProcessor } from './webhook-processor';
