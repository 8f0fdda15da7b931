// What other features use of the broadcasts feature (decision 071: features meet only through index.ts).
export { audienceByPrefix, NUMBER_PREFIX } from './audience/audience-counts';
export { freshenCounts, lockBroadcasts } from './broadcast-counts';
export { findTemplate, requestAudience, sendingNumber } from './audience/broadcast-estimate';
export {
  deleteForRetention,
  noteClickComponent,
  recordFirstClicks,
  trackedClicksOfTemplate,
  type FirstClick,
} from './message-rows';
export { moveUnsentMessages } from './message-rows/number-moves';
export { applyMessageStatuses, broadcastWrites } from './statuses/message-status-webhooks';
export { setPortfolioTier } from './sending/messaging-limit';
export { pauseLockedBroadcasts } from './sending/template-pause';
export { collectCategoryHold, collectTemplatePause } from './statuses/template-pause-webhooks';
