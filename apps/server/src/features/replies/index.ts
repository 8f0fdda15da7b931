// What other features use of the replies feature (decision 071: features meet only through index.ts).
export { storeInboundMessages } from './inbound-webhooks';
