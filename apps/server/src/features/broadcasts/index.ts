// What other features use of the broadcasts feature (decision 071: features meet only through index.ts).
export { audienceByPrefix, NUMBER_PREFIX } from './audience-counts';
export { freshenCounts } from './broadcast-counts';
export { findTemplate, requestAudience, sendingNumber } from './broadcast-estimate';
export { deleteForRetention } from './message-rows';
export { applyMessageStatuses, broadcastWrites } from './message-status-webhooks';
export { setPortfolioTier } from './messaging-limit';
export { collectTemplatePause } from './template-pause-webhooks';
