// What other features use of the numbers feature (decision 071: features meet only through index.ts).
export {
  applyCapabilityUpdate,
  applyPhoneNameUpdate,
  applyPhoneQualityUpdate,
  applySecurityEvent,
} from './number-webhooks';
