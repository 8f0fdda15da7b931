/**
 * Onboarding to Meta's Marketing Messages API for WhatsApp (MM API, formerly MM Lite). The terms are signed
 * per business portfolio (a WABA's `businessId`), once for every WABA in it; whether a WABA may use the API
 * once they are signed is Meta's eligibility decision about that WABA, which tests set (eligible by default).
 */

export const TERMS_STATUSES = ['NOT_STARTED', 'REQUEST_SENT', 'TERM_OF_SERVICE_SIGNED'] as const;
export type TermsStatus = (typeof TERMS_STATUSES)[number];

/** Why a WABA may not use the API (yet), as `marketing_messages_onboarding_status` names it. */
export const INELIGIBILITY_REASONS = [
  'INELIGIBLE_ON_BEHALF_OF_WABA',
  'INELIGIBLE_INACTIVE_OR_RESTRICTED',
  'INELIGIBLE_COUNTRY_NOT_SUPPORTED',
  'INELIGIBLE_USING_WHATSAPP_BUSINESS_APP',
  'PENDING_VALID_PAYMENT_METHOD',
  'PENDING_INTERNAL_SETUP',
] as const;
export type IneligibilityReason = (typeof INELIGIBILITY_REASONS)[number];
export type Eligibility = 'ELIGIBLE' | IneligibilityReason;

export const isIneligibilityReason = (value: unknown): value is IneligibilityReason =>
  (INELIGIBILITY_REASONS as readonly unknown[]).includes(value);

/** A portfolio's terms as Graph shows them: `time` ('YYYY-MM-DD') from the first change on. */
export interface TermsRecord {
  status: TermsStatus;
  time?: string;
}

/** Saved across restarts (absent in older state files: every portfolio NOT_STARTED, every WABA eligible). */
export interface SavedMarketingMessages {
  terms: Record<string, TermsRecord>;
  ineligible: Record<string, IneligibilityReason>;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

export class MarketingMessagesOnboarding {
  private readonly terms = new Map<string, TermsRecord>();
  /** WABA id → why it may not use the API; a WABA not named here is eligible. */
  private readonly ineligible = new Map<string, IneligibilityReason>();

  termsOf(businessId: string): TermsRecord {
    return this.terms.get(businessId) ?? { status: 'NOT_STARTED' };
  }

  setTerms(businessId: string, status: TermsStatus, now = new Date()): TermsRecord {
    const record = { status, time: today(now) };
    this.terms.set(businessId, record);
    return record;
  }

  eligibilityOf(wabaId: string): Eligibility {
    return this.ineligible.get(wabaId) ?? 'ELIGIBLE';
  }

  setEligibility(wabaId: string, eligibility: Eligibility): void {
    if (eligibility === 'ELIGIBLE') this.ineligible.delete(wabaId);
    else this.ineligible.set(wabaId, eligibility);
  }

  /**
   * The WABA's `marketing_messages_onboarding_status`: what keeps it out when something does, ONBOARDED once its
   * portfolio signed the terms, else ELIGIBLE (it could onboard).
   */
  wabaStatus(wabaId: string, businessId: string): 'ONBOARDED' | Eligibility {
    const eligibility = this.eligibilityOf(wabaId);
    if (eligibility !== 'ELIGIBLE') return eligibility;
    return this.termsOf(businessId).status === 'TERM_OF_SERVICE_SIGNED' ? 'ONBOARDED' : 'ELIGIBLE';
  }

  /** A marketing message may go through the MM API only from an onboarded WABA. */
  isOnboarded(wabaId: string, businessId: string): boolean {
    return this.wabaStatus(wabaId, businessId) === 'ONBOARDED';
  }

  clear(): void {
    this.terms.clear();
    this.ineligible.clear();
  }

  save(): SavedMarketingMessages {
    return { terms: Object.fromEntries(this.terms), ineligible: Object.fromEntries(this.ineligible) };
  }

  restore(saved: SavedMarketingMessages | undefined): void {
    this.clear();
    for (const [businessId, record] of Object.entries(saved?.terms ?? {})) {
      if ((TERMS_STATUSES as readonly unknown[]).includes(record?.status)) {
        this.terms.set(businessId, {
          status: record.status,
          ...(typeof record.time === 'string' ? { time: record.time } : {}),
        });
      }
    }
    for (const [wabaId, reason] of Object.entries(saved?.ineligible ?? {})) {
      if (isIneligibilityReason(reason)) this.ineligible.set(wabaId, reason);
    }
  }
}
