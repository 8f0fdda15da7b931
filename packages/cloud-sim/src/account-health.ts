import type { SandboxContext } from './context';
import { GraphError, invalidParameter } from './errors';
import { isPortfolioTier, TIER_NAMES, tierLimit } from './messages/portfolio-tiers';
import type { PhoneNumber } from './state';
import { stringParam } from './request-params';
import { businessCapabilityPayload, phoneQualityPayload, QUALITY_EVENTS } from './webhooks/account-payloads';
import type { QualityEvent } from './webhooks/account-payloads';
import { webhookTarget } from './webhooks/webhook-target';

const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED', 'UNKNOWN'] as const;
const PHONE_STATUSES = [
  'CONNECTED',
  'PENDING',
  'DISCONNECTED',
  'FLAGGED',
  'RESTRICTED',
  'RATE_LIMITED',
  'BANNED',
  'MIGRATED',
  'DELETED',
  'UNVERIFIED',
] as const;
const QUALITY_RANK: Record<PhoneNumber['qualityRating'], number> = {
  GREEN: 0,
  UNKNOWN: 0,
  YELLOW: 1,
  RED: 2,
};

export function unknownPortfolio(id: string): GraphError {
  return new GraphError(404, 100, `(#100) No business portfolio with id ${id}`);
}

/** `GET /__sandbox/portfolios/{id}`: the tier and the users reached in the moving 24 hours. */
export function portfolioView(ctx: SandboxContext, businessId: string, now = Date.now()) {
  const tier = ctx.state.portfolioTier(businessId);
  const window = ctx.messaging.reach.window(businessId, now);
  const limit = tierLimit(tier);
  return {
    business_id: businessId,
    tier,
    limit,
    reached_in_window: window.length,
    remaining: limit === null ? null : Math.max(0, limit - window.length),
    window: window.map((r) => ({ to: r.to, reached_at: new Date(r.reachedAt).toISOString() })),
  };
}

/** Sets the portfolio's tier and tells each of its WABAs, as Meta's `business_capability_update` does. */
export function setPortfolioTier(ctx: SandboxContext, businessId: string, params: Record<string, unknown>) {
  const tier = params.tier;
  if (tier === undefined) throw invalidParameter('tier is required');
  if (!isPortfolioTier(tier)) throw invalidParameter(`tier must be one of ${TIER_NAMES.join(', ')}`);
  ctx.state.setPortfolioTier(businessId, tier);
  const deliveries = ctx.state.wabasOf(businessId).map((waba) =>
    ctx.webhooks.send(webhookTarget(ctx, waba.id), businessCapabilityPayload(waba.id, tier), {
      field: 'business_capability_update',
      wabaId: waba.id,
    }),
  );
  return { ...portfolioView(ctx, businessId), delivery_ids: deliveries.map((d) => d.id) };
}

/** Ages every reach (and service window) of the portfolio, so a test can let 24 hours pass at once. */
export function advancePortfolio(ctx: SandboxContext, businessId: string, params: Record<string, unknown>) {
  const raw = params.seconds;
  const seconds = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 30 * 86_400) {
    throw invalidParameter('seconds must be a number from 0 to 2592000 (30 days)');
  }
  ctx.messaging.reach.age(businessId, seconds * 1000);
  return portfolioView(ctx, businessId);
}

function pickEnum<T extends string>(params: Record<string, unknown>, name: string, values: readonly T[]) {
  const value = stringParam(params, name);
  if (value !== undefined && !values.includes(value as T)) {
    throw invalidParameter(`${name} must be one of ${values.join(', ')}`);
  }
  return value as T | undefined;
}

/** Checks `quality_rating`, `status` and `event` of `POST /__sandbox/phone-numbers/{id}` before any change. */
export function parseQualityChange(params: Record<string, unknown>) {
  return {
    qualityRating: pickEnum(params, 'quality_rating', QUALITY_RATINGS),
    status: pickEnum(params, 'status', PHONE_STATUSES),
    event: pickEnum(params, 'event', QUALITY_EVENTS),
  };
}

/**
 * Applies a quality or status change and sends `phone_number_quality_update` when something changed (or an
 * event was named). Unless named, the event is FLAGGED for a change for the worse (lower quality, or a
 * status other than CONNECTED) and UNFLAGGED for one for the better.
 */
export function applyQualityChange(
  ctx: SandboxContext,
  phone: PhoneNumber,
  change: ReturnType<typeof parseQualityChange>,
): { event: QualityEvent; delivery_id: string } | null {
  const before = { quality: phone.qualityRating, status: phone.status };
  if (change.qualityRating !== undefined) phone.qualityRating = change.qualityRating;
  if (change.status !== undefined) phone.status = change.status;
  const qualityMove = QUALITY_RANK[phone.qualityRating] - QUALITY_RANK[before.quality];
  const wasFine = before.status === 'CONNECTED';
  const isFine = phone.status === 'CONNECTED';
  const worse = qualityMove > 0 || (wasFine && !isFine);
  const better = qualityMove < 0 || (!wasFine && isFine);
  const event = change.event ?? (worse ? 'FLAGGED' : better ? 'UNFLAGGED' : undefined);
  if (event === undefined) return null;
  const portfolioId = ctx.state.findWaba(phone.wabaId)?.businessId ?? phone.wabaId;
  const payload = phoneQualityPayload({
    wabaId: phone.wabaId,
    displayDigits: phone.digits,
    event,
    tier: ctx.state.portfolioTier(portfolioId),
  });
  const delivery = ctx.webhooks.send(webhookTarget(ctx, phone.wabaId), payload, {
    field: 'phone_number_quality_update',
    wabaId: phone.wabaId,
  });
  return { event, delivery_id: delivery.id };
}
