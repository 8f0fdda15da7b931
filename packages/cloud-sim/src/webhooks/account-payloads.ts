import type { PortfolioTier } from '../messages/portfolio-tiers';

/** Meta's phone_number_quality_update events (the ones about throughput and limits included). */
export const QUALITY_EVENTS = [
  'FLAGGED',
  'UNFLAGGED',
  'UPGRADE',
  'DOWNGRADE',
  'ONBOARDING',
  'THROUGHPUT_UPGRADE',
] as const;
export type QualityEvent = (typeof QUALITY_EVENTS)[number];

/** Phone numbers per WABA Meta allows once a portfolio is past its first 250-user limit. */
const PHONE_NUMBERS_PER_WABA = 25;
/** Phone numbers a portfolio at the 250 limit may have. */
const PHONE_NUMBERS_PER_PORTFOLIO_AT_250 = 2;

function notification(wabaId: string, field: string, value: Record<string, unknown>, now: Date) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaId, time: Math.floor(now.getTime() / 1000), changes: [{ value, field }] }],
  };
}

/**
 * `business_capability_update` for one WABA of a portfolio whose limit changed. Meta's reference lists
 * `max_daily_conversations_per_business` values as TIER_250…TIER_UNLIMITED (its older example shows 2000);
 * the deprecated per-phone integer was removed in February 2026. The phone-number cap is per portfolio at
 * TIER_250 and per WABA above it, as the reference says.
 */
export function businessCapabilityPayload(wabaId: string, tier: PortfolioTier, now = new Date()) {
  return notification(
    wabaId,
    'business_capability_update',
    {
      max_daily_conversations_per_business: tier,
      ...(tier === 'TIER_250'
        ? { max_phone_numbers_per_business: PHONE_NUMBERS_PER_PORTFOLIO_AT_250 }
        : { max_phone_numbers_per_waba: PHONE_NUMBERS_PER_WABA }),
    },
    now,
  );
}

/**
 * `account_update` MM_LITE_TERMS_SIGNED for one WABA of a portfolio that signed the Marketing Messages API
 * terms: Meta sends one per eligible WABA, naming the WABA and its owner.
 */
export function mmTermsSignedPayload(wabaId: string, ownerBusinessId: string, now = new Date()) {
  return notification(
    wabaId,
    'account_update',
    { event: 'MM_LITE_TERMS_SIGNED', waba_info: { waba_id: wabaId, owner_business_id: ownerBusinessId } },
    now,
  );
}

/**
 * `phone_number_quality_update` for one number: its display digits, the event and the portfolio's limit
 * (`current_limit` was removed in February 2026; `old_limit` comes only with limit changes).
 */
export function phoneQualityPayload(
  input: { wabaId: string; displayDigits: string; event: QualityEvent; tier: PortfolioTier },
  now = new Date(),
) {
  return notification(
    input.wabaId,
    'phone_number_quality_update',
    {
      display_phone_number: input.displayDigits,
      event: input.event,
      max_daily_conversations_per_business: input.tier,
    },
    now,
  );
}
