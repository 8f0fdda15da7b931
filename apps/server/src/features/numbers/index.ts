// What other features use of the numbers feature (decision 071: features meet only through index.ts).
export { applyCapabilityUpdate, applyPhoneNameUpdate, applyPhoneQualityUpdate } from './number-webhooks';
