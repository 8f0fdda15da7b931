import { z } from 'zod';

/**
 * Meta's Marketing Messages API for WhatsApp ("MM API"): a WABA's `marketing_messages_onboarding_status` as
 * Meta answers it, and what Herald makes of it. Onboarding is the business portfolio accepting the MM API terms
 * (decision 090).
 */
export const MM_API_INELIGIBLE_REASONS: Record<string, string> = {
  INELIGIBLE_ON_BEHALF_OF_WABA: 'Meta does not offer it to accounts shared on behalf of another business.',
  INELIGIBLE_INACTIVE_OR_RESTRICTED: 'The account is inactive or restricted from messaging.',
  INELIGIBLE_COUNTRY_NOT_SUPPORTED: 'The business’s country is not supported yet.',
  INELIGIBLE_USING_WHATSAPP_BUSINESS_APP: 'The number is also used in the WhatsApp Business app.',
};

export const MM_API_PENDING_REASONS: Record<string, string> = {
  PENDING_VALID_PAYMENT_METHOD: 'Meta is waiting for a valid payment method on the account.',
  PENDING_INTERNAL_SETUP: 'Meta is finishing the set-up.',
};

export const mmApiStateSchema = z.enum(['onboarded', 'pending', 'not_onboarded', 'not_eligible', 'unknown']);
export type MmApiState = z.infer<typeof mmApiStateSchema>;

export const mmApiStatusResponseSchema = z.object({
  waba_id: z.string(),
  state: mmApiStateSchema,
  /** Meta's own value (ONBOARDED, ELIGIBLE, INELIGIBLE_…), null until Herald could read it. */
  meta_status: z.string().nullable(),
  /** Why the account is not eligible or still pending, in plain words; null otherwise. */
  reason: z.string().nullable(),
  /** When Herald asked Meta to invite the portfolio's admins to accept the terms. */
  requested_at: z.string().nullable(),
  /** Since when Meta's value has been what it is (as Herald saw it). */
  status_since: z.string().nullable(),
  /** Whether the owner can start onboarding now (eligible, not onboarded, no invitation sent yet). */
  can_start: z.boolean(),
  /** Whether this account's marketing broadcasts go through /marketing_messages now. */
  routes_marketing: z.boolean(),
});
export type MmApiStatusResponse = z.infer<typeof mmApiStatusResponseSchema>;

/** What Herald makes of Meta's value and of an invitation it sent. */
export function mmApiState(
  metaStatus: string | null,
  requested: boolean,
): { state: MmApiState; reason: string | null } {
  if (metaStatus === null) return { state: 'unknown', reason: null };
  if (metaStatus === 'ONBOARDED') return { state: 'onboarded', reason: null };
  if (metaStatus in MM_API_PENDING_REASONS)
    return { state: 'pending', reason: MM_API_PENDING_REASONS[metaStatus]! };
  if (metaStatus.startsWith('INELIGIBLE'))
    return {
      state: 'not_eligible',
      reason: MM_API_INELIGIBLE_REASONS[metaStatus] ?? `Meta says ${metaStatus}.`,
    };
  if (requested)
    return {
      state: 'pending',
      reason: 'Meta has emailed your business portfolio’s admins to accept the terms.',
    };
  return { state: 'not_onboarded', reason: null };
}
