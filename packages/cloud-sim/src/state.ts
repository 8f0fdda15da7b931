import { randomUUID } from 'node:crypto';
import {
  DEFAULT_PORTFOLIO_TIER,
  isPortfolioTier,
  UNRECORDED_PORTFOLIO_TIER,
} from './messages/portfolio-tiers';
import type { PortfolioTier } from './messages/portfolio-tiers';
import { formatDisplayPhoneNumber } from './phone-format';
import { randomAlphanumeric, randomNumericId } from './random-strings';
import { MarketingMessagesOnboarding } from './marketing-messages/onboarding';
import type { SavedMarketingMessages } from './marketing-messages/onboarding';
import { TemplateStore } from './templates/template-store';
import { MediaStore } from './media/media-store';
import { UploadStore } from './uploads/upload-store';

export interface Waba {
  id: string;
  businessId: string;
  name: string;
  currency: string;
  timezoneId: string;
  messageTemplateNamespace: string;
  /** Template analytics confirmed (`POST /{waba-id}?is_enabled_for_insights=true`); absent: not yet. */
  isEnabledForInsights?: boolean;
}

export interface PhoneNumber {
  id: string;
  wabaId: string;
  digits: string;
  displayPhoneNumber: string;
  verifiedName: string;
  codeVerificationStatus: 'VERIFIED' | 'NOT_VERIFIED' | 'EXPIRED';
  qualityRating: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  platformType: 'CLOUD_API' | 'ON_PREMISE' | 'NOT_APPLICABLE';
  throughputLevel: 'STANDARD' | 'HIGH' | 'NOT_APPLICABLE';
  lastOnboardedTime: string;
  businessManagerMessagingLimit: string;
  status: string;
  nameStatus: string;
  registered: boolean;
  pin: string | null;
}

export interface AuthorizationCode {
  code: string;
  appId: string;
  wabaIds: string[];
  used: boolean;
  createdAt: string;
}

export interface AccessToken {
  token: string;
  appId: string;
  wabaIds: string[];
}

export interface Subscription {
  wabaId: string;
  appId: string;
  overrideCallbackUri: string | null;
  verifyToken: string | null;
}

export interface NewBusiness {
  appId: string;
  businessName: string;
  phoneDigits: string;
}

export type ExchangeResult = { ok: true; token: AccessToken } | { ok: false; reason: 'unknown' | 'used' };

/** The business records as the state file keeps them (secrets included: the file is 0600). */
export interface StateRecords {
  businesses: string[];
  wabas: Waba[];
  phoneNumbers: PhoneNumber[];
  codes: AuthorizationCode[];
  tokens: AccessToken[];
  subscriptions: Subscription[];
  /** Business portfolio → messaging limit tier; absent in state files written before tiers were modelled. */
  portfolioTiers?: Record<string, PortfolioTier>;
  /** MM API terms per portfolio and WABA eligibility; absent in older files (NOT_STARTED, eligible). */
  marketingMessages?: SavedMarketingMessages;
}

/** Graph renders times as "2024-05-01T10:00:00+0000". */
function graphTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** Everything the sandbox knows, in memory; `reset` brings it back to empty. */
export class SandboxState {
  private readonly businesses = new Set<string>();
  private readonly wabas = new Map<string, Waba>();
  private readonly phoneNumbers = new Map<string, PhoneNumber>();
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly tokens = new Map<string, AccessToken>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly portfolioTiers = new Map<string, PortfolioTier>();
  readonly templates = new TemplateStore();
  readonly uploads = new UploadStore();
  readonly media = new MediaStore();
  readonly marketingMessages = new MarketingMessagesOnboarding();

  /** `defaultTier`: the messaging limit a new portfolio gets (configurable, read at each sign-up). */
  constructor(private readonly defaultTier: () => PortfolioTier = () => DEFAULT_PORTFOLIO_TIER) {}

  reset(): void {
    this.portfolioTiers.clear();
    this.marketingMessages.clear();
    this.templates.clear();
    this.uploads.clear();
    this.media.clear();
    this.businesses.clear();
    this.wabas.clear();
    this.phoneNumbers.clear();
    this.codes.clear();
    this.tokens.clear();
    this.subscriptions.clear();
  }

  /** Businesses, WABAs, numbers (with registrations and PINs), codes, tokens and subscriptions, for the state file. */
  records(): StateRecords {
    return {
      businesses: [...this.businesses],
      wabas: [...this.wabas.values()],
      phoneNumbers: [...this.phoneNumbers.values()],
      codes: [...this.codes.values()],
      tokens: [...this.tokens.values()],
      subscriptions: [...this.subscriptions.values()],
      portfolioTiers: Object.fromEntries(this.portfolioTiers),
      marketingMessages: this.marketingMessages.save(),
    };
  }

  /** Replaces the business records with what a state file kept (templates, uploads and media restore apart). */
  restore(records: StateRecords): void {
    this.businesses.clear();
    this.wabas.clear();
    this.phoneNumbers.clear();
    this.codes.clear();
    this.tokens.clear();
    this.subscriptions.clear();
    for (const id of records.businesses) this.businesses.add(id);
    for (const waba of records.wabas) this.wabas.set(waba.id, waba);
    for (const phone of records.phoneNumbers) this.phoneNumbers.set(phone.id, phone);
    for (const code of records.codes) this.codes.set(code.code, code);
    for (const token of records.tokens) this.tokens.set(token.token, token);
    for (const s of records.subscriptions) this.subscriptions.set(`${s.wabaId}:${s.appId}`, s);
    this.marketingMessages.restore(records.marketingMessages);
    this.portfolioTiers.clear();
    for (const [id, tier] of Object.entries(records.portfolioTiers ?? {})) {
      if (isPortfolioTier(tier)) this.portfolioTiers.set(id, tier);
    }
    // An older file kept the limit only on the numbers: the portfolio takes its numbers' value.
    for (const waba of records.wabas) {
      if (this.portfolioTiers.has(waba.businessId)) continue;
      const shown = this.phoneNumbersOf(waba.id)[0]?.businessManagerMessagingLimit;
      this.portfolioTiers.set(waba.businessId, isPortfolioTier(shown) ? shown : UNRECORDED_PORTFOLIO_TIER);
    }
  }

  /** What a finished Embedded Signup leaves behind: a business, its WABA and number, and a one-time code. */
  createBusiness(input: NewBusiness): { waba: Waba; phoneNumber: PhoneNumber; code: AuthorizationCode } {
    const businessId = this.newId();
    this.businesses.add(businessId);
    const tier = this.defaultTier();
    this.portfolioTiers.set(businessId, tier);
    const waba: Waba = {
      id: this.newId(),
      businessId,
      name: input.businessName,
      currency: 'USD',
      timezoneId: '1',
      messageTemplateNamespace: randomUUID().replaceAll('-', '_'),
    };
    this.wabas.set(waba.id, waba);
    const phoneNumber: PhoneNumber = {
      id: this.newId(),
      wabaId: waba.id,
      digits: input.phoneDigits,
      displayPhoneNumber: formatDisplayPhoneNumber(input.phoneDigits),
      verifiedName: input.businessName,
      codeVerificationStatus: 'VERIFIED',
      qualityRating: 'GREEN',
      platformType: 'CLOUD_API',
      throughputLevel: 'STANDARD',
      lastOnboardedTime: graphTime(new Date()),
      businessManagerMessagingLimit: tier,
      status: 'PENDING',
      nameStatus: 'AVAILABLE_WITHOUT_REVIEW',
      registered: false,
      pin: null,
    };
    this.phoneNumbers.set(phoneNumber.id, phoneNumber);
    const code: AuthorizationCode = {
      code: `AQ${randomAlphanumeric(94)}`,
      appId: input.appId,
      wabaIds: [waba.id],
      used: false,
      createdAt: new Date().toISOString(),
    };
    this.codes.set(code.code, code);
    return { waba, phoneNumber, code };
  }

  /**
   * Another number in an existing WABA, already registered (CONNECTED), as when a business adds a second
   * number in WhatsApp Manager; it shows its portfolio's messaging limit like the first.
   */
  addPhoneNumber(wabaId: string, phoneDigits: string): PhoneNumber {
    const waba = this.wabas.get(wabaId);
    if (!waba) throw new Error(`unknown WABA ${wabaId}`);
    const phoneNumber: PhoneNumber = {
      id: this.newId(),
      wabaId,
      digits: phoneDigits,
      displayPhoneNumber: formatDisplayPhoneNumber(phoneDigits),
      verifiedName: waba.name,
      codeVerificationStatus: 'VERIFIED',
      qualityRating: 'GREEN',
      platformType: 'CLOUD_API',
      throughputLevel: 'STANDARD',
      lastOnboardedTime: graphTime(new Date()),
      businessManagerMessagingLimit: this.portfolioTier(waba.businessId),
      status: 'CONNECTED',
      nameStatus: 'AVAILABLE_WITHOUT_REVIEW',
      registered: true,
      pin: null,
    };
    this.phoneNumbers.set(phoneNumber.id, phoneNumber);
    return phoneNumber;
  }

  /** A code is spent by its first exchange, whatever happens next, as Meta's are. */
  exchangeCode(code: string): ExchangeResult {
    const entry = this.codes.get(code);
    if (!entry) return { ok: false, reason: 'unknown' };
    if (entry.used) return { ok: false, reason: 'used' };
    entry.used = true;
    const token: AccessToken = {
      token: `EAA${randomAlphanumeric(180)}`,
      appId: entry.appId,
      wabaIds: [...entry.wabaIds],
    };
    this.tokens.set(token.token, token);
    return { ok: true, token };
  }

  findToken(token: string): AccessToken | undefined {
    return this.tokens.get(token);
  }

  findWaba(id: string): Waba | undefined {
    return this.wabas.get(id);
  }

  findPhoneNumber(id: string): PhoneNumber | undefined {
    return this.phoneNumbers.get(id);
  }

  hasBusiness(businessId: string): boolean {
    return this.businesses.has(businessId);
  }

  wabasOf(businessId: string): Waba[] {
    return [...this.wabas.values()].filter((w) => w.businessId === businessId);
  }

  /** The portfolio's messaging limit tier (a WABA's `businessId` is its portfolio). */
  portfolioTier(businessId: string): PortfolioTier {
    return this.portfolioTiers.get(businessId) ?? DEFAULT_PORTFOLIO_TIER;
  }

  /** Sets the portfolio's tier; every number of the portfolio shows it. */
  setPortfolioTier(businessId: string, tier: PortfolioTier): void {
    this.portfolioTiers.set(businessId, tier);
    for (const waba of this.wabasOf(businessId)) {
      for (const phone of this.phoneNumbersOf(waba.id)) phone.businessManagerMessagingLimit = tier;
    }
  }

  phoneNumbersOf(wabaId: string): PhoneNumber[] {
    return [...this.phoneNumbers.values()].filter((p) => p.wabaId === wabaId);
  }

  /** Sets the two-step verification PIN on first registration; afterwards the PIN must match it. */
  register(phoneNumberId: string, pin: string): 'registered' | 'pin-mismatch' {
    const phone = this.phoneNumbers.get(phoneNumberId);
    if (!phone) throw new Error(`unknown phone number ${phoneNumberId}`);
    if (phone.pin !== null && phone.pin !== pin) return 'pin-mismatch';
    phone.pin = pin;
    phone.registered = true;
    phone.status = 'CONNECTED';
    return 'registered';
  }

  subscribe(subscription: Subscription): void {
    this.subscriptions.set(`${subscription.wabaId}:${subscription.appId}`, subscription);
  }

  unsubscribe(wabaId: string, appId: string): void {
    this.subscriptions.delete(`${wabaId}:${appId}`);
  }

  subscriptionsOf(wabaId: string): Subscription[] {
    return [...this.subscriptions.values()].filter((s) => s.wabaId === wabaId);
  }

  snapshot() {
    return {
      businesses: [...this.businesses],
      wabas: [...this.wabas.values()].map((w) => ({
        id: w.id,
        business_id: w.businessId,
        name: w.name,
        phone_number_ids: this.phoneNumbersOf(w.id).map((p) => p.id),
      })),
      phone_numbers: [...this.phoneNumbers.values()].map((p) => ({
        id: p.id,
        waba_id: p.wabaId,
        digits: p.digits,
        display_phone_number: p.displayPhoneNumber,
        verified_name: p.verifiedName,
        status: p.status,
      })),
      codes: [...this.codes.values()].map((c) => ({
        code: c.code,
        app_id: c.appId,
        waba_ids: c.wabaIds,
        used: c.used,
        created_at: c.createdAt,
      })),
      tokens_count: this.tokens.size,
      subscriptions: [...this.subscriptions.values()].map((s) => ({
        waba_id: s.wabaId,
        app_id: s.appId,
        override_callback_uri: s.overrideCallbackUri,
      })),
      registrations: [...this.phoneNumbers.values()]
        .filter((p) => p.registered)
        .map((p) => ({ phone_number_id: p.id, pin: p.pin })),
      templates: this.templates.snapshot(),
      uploads: this.uploads.snapshot(),
      media: this.media.snapshot(),
    };
  }

  /** A fresh 15-digit Graph id, unique across every kind of object. */
  newId(): string {
    let id = randomNumericId();
    while (
      this.wabas.has(id) ||
      this.phoneNumbers.has(id) ||
      this.businesses.has(id) ||
      this.templates.has(id) ||
      this.media.has(id)
    ) {
      id = randomNumericId();
    }
    return id;
  }
}

export type SandboxSnapshot = ReturnType<SandboxState['snapshot']>;
