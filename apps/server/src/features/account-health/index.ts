// What other features use of the account-health feature (decision 071: features meet only through index.ts).
export { readSendingStop, readShownAccountHealth } from './account-health-repo';
export { applyAccountReview, applyAccountUpdate } from './account-health-webhooks';
export { applyAccountAlert, applyWebhookErrors } from './account-alert-webhooks';
