// What other features use of the contacts feature (decision 071: features meet only through index.ts).
export { e164, isBsuid, isBsuidAddress, senderIdsOf } from './bsuid-contacts';
export { applyOptOuts, applyUserPreferences } from './opt-out-webhooks';
