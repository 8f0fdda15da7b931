import type { FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';
import { missingParameter } from '../errors';
import { requestParams } from '../request-params';
import type { AccessToken } from '../state';
import { templateError, templateNotEditable } from '../templates/template-errors';
import type { MessageTemplate } from '../templates/template-store';
import { changeTemplateStatus } from '../templates/template-status-change';
import { parseTimeToLive } from '../templates/time-to-live';
import { editedMaxPrice, refuseBidSpec, requireMmApiOnboarding } from '../templates/max-price';
import { validateCategory, validateComponents } from '../templates/validate-template';
import { handleResolver } from './message-templates';

const EDITABLE = new Set(['APPROVED', 'REJECTED', 'PAUSED']);
/** The keys of an edit that changes only the max price (name and language may be repeated unchanged). */
const MAX_PRICE_EDIT_KEYS = new Set(['optimization_spec', 'name', 'language', 'access_token']);

/** The template a token may see under this id, if any (another WABA's template is invisible). */
export function grantedTemplate(
  ctx: SandboxContext,
  token: AccessToken,
  id: string,
): MessageTemplate | undefined {
  const template = ctx.state.templates.find(id);
  return template && token.wabaIds.includes(template.wabaId) ? template : undefined;
}

/**
 * `POST /{template-id}`: Meta edits only APPROVED, REJECTED or PAUSED templates, replaces the components
 * wholesale, keeps name and language, keeps an approved template's category, and reviews it again. The
 * time-to-live may be changed alone; a category change without one resets it, as Meta resets it when it
 * re-categorises a template (the old value may not fit the new category's range). The max price
 * (`optimization_spec`, max-price.ts) may be changed alone too, without a new review.
 */
export async function editTemplate(
  ctx: SandboxContext,
  request: FastifyRequest,
  token: AccessToken,
  template: MessageTemplate,
): Promise<{ success: true }> {
  const params = requestParams(request);
  for (const key of ['name', 'language'] as const) {
    const value = params[key];
    const current = key === 'name' ? template.name : template.language;
    if (value !== undefined && value !== current) {
      throw templateError("Can't Change Template", `A template's ${key} can't be changed by an edit.`);
    }
  }
  if (!EDITABLE.has(template.status)) throw templateNotEditable(template.status);
  refuseBidSpec(params);
  const hasComponents = params.components !== undefined;
  const hasCategory = params.category !== undefined;
  const hasMaxPrice = params.optimization_spec !== undefined;
  if (!hasComponents && !hasCategory && params.message_send_ttl_seconds === undefined && !hasMaxPrice) {
    throw missingParameter('components');
  }
  const category = hasCategory ? validateCategory(params.category) : template.category;
  if (template.status === 'APPROVED' && category !== template.category) {
    throw templateError(
      "Category Can't Be Changed",
      "An approved template's category can't be changed. Create a new template instead.",
    );
  }
  const components = hasComponents
    ? validateComponents(params.components, handleResolver(ctx, token))
    : template.components;
  const ttl =
    params.message_send_ttl_seconds !== undefined
      ? parseTimeToLive(params.message_send_ttl_seconds, category)
      : category === template.category
        ? (template.messageSendTtlSeconds ?? null)
        : null;
  const maxPrice = editedMaxPrice(params.optimization_spec, template.maxPriceBidAmount, category);
  if (hasMaxPrice) {
    const waba = ctx.state.findWaba(template.wabaId);
    requireMmApiOnboarding(!!waba && ctx.state.marketingMessages.isOnboarded(waba.id, waba.businessId));
  }
  // Meta counts a max price change apart from content edits: alone, it sends nothing back to review.
  const maxPriceOnly = hasMaxPrice && Object.keys(params).every((key) => MAX_PRICE_EDIT_KEYS.has(key));
  template.components = components;
  template.category = category;
  if (ttl === null) delete template.messageSendTtlSeconds;
  else template.messageSendTtlSeconds = ttl;
  if (maxPrice === undefined) delete template.maxPriceBidAmount;
  else template.maxPriceBidAmount = maxPrice;
  if (maxPriceOnly) template.lastUpdatedTime = new Date();
  else {
    changeTemplateStatus(ctx, template, 'PENDING', null);
    ctx.reviews.schedule(template.id);
  }
  const result = { success: true as const };
  await ctx.log.append({ method: 'POST', path: `/${template.id}`, body: params, result });
  return result;
}
