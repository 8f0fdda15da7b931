import type { SandboxContext } from '../context';
import { GraphError, invalidParameter, missingParameter } from '../errors';
import { randomNumericId } from '../random-strings';
import { mmTermsSignedPayload } from '../webhooks/account-payloads';
import { webhookTarget } from '../webhooks/webhook-target';
import { INELIGIBILITY_REASONS, isIneligibilityReason } from './onboarding';
import type { Eligibility } from './onboarding';
import { termsView } from './onboarding-fields';

/** Meta's answer to a second intent request for a portfolio that was already asked, or already signed. */
export function alreadyRequested(): GraphError {
  return new GraphError(400, 1752041, 'Your business has already sent this request');
}

/**
 * The partner's intent request (`POST /{business-id}/onboard_partners_to_mm_lite`): Meta emails the portfolio's
 * admins an invitation to accept the terms, and the terms show REQUEST_SENT until one does.
 */
export function requestOnboarding(ctx: SandboxContext, businessId: string): { id: string } {
  const terms = ctx.state.marketingMessages.termsOf(businessId);
  if (terms.status !== 'NOT_STARTED') throw alreadyRequested();
  ctx.state.marketingMessages.setTerms(businessId, 'REQUEST_SENT');
  return { id: randomNumericId() };
}

/**
 * A portfolio admin accepts the terms in WhatsApp Manager: the portfolio is TERM_OF_SERVICE_SIGNED from today,
 * and each of its WABAs that is eligible gets Meta's `account_update` MM_LITE_TERMS_SIGNED.
 */
export function acceptTerms(ctx: SandboxContext, businessId: string) {
  const now = new Date();
  const { marketingMessages } = ctx.state;
  marketingMessages.setTerms(businessId, 'TERM_OF_SERVICE_SIGNED', now);
  const notified = ctx.state
    .wabasOf(businessId)
    .filter((waba) => marketingMessages.eligibilityOf(waba.id) === 'ELIGIBLE')
    .map((waba) => {
      const delivery = ctx.webhooks.send(
        webhookTarget(ctx, waba.id),
        mmTermsSignedPayload(waba.id, businessId, now),
        { field: 'account_update', wabaId: waba.id },
      );
      return { waba_id: waba.id, delivery_id: delivery.id };
    });
  return { id: businessId, marketing_messages_onboarding_status: termsView(ctx, businessId), notified };
}

/** `{"eligibility": "ELIGIBLE" | one of INELIGIBILITY_REASONS}` of the control API. */
export function parseEligibility(params: Record<string, unknown>): Eligibility {
  const value = params.eligibility;
  if (value === undefined) throw missingParameter('eligibility');
  if (value !== 'ELIGIBLE' && !isIneligibilityReason(value)) {
    throw invalidParameter(`eligibility must be ELIGIBLE or one of ${INELIGIBILITY_REASONS.join(', ')}`);
  }
  return value;
}
