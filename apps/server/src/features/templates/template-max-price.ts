import { isDeepStrictEqual } from 'node:util';
import { MAX_PRICE_EDIT_MESSAGES, type TemplatePayload } from '@herald/contracts';
import { optimizationSpec } from './meta-template';
import type { TemplateRow } from './templates-repo';

/**
 * A marketing template's max price as Meta takes it (its "Set a max price" guide): on create, or changed by an
 * edit of a template that has one; never added to a submitted template created without one, never removed while
 * the template stays marketing (a change of category drops it); only for an account onboarded to the Marketing
 * Messages API; and a change of price alone is not reviewed again.
 */

/** A payload's maximum price (Meta's bid_amount); null keeps the rate card. */
export const maxPriceOf = (payload: TemplatePayload): number | null => payload.max_price_bid_amount ?? null;

/** Why Meta would refuse the payload's max price for this template, or null; `onboarded` is asked only if needed. */
export async function maxPriceRefusal(
  payload: TemplatePayload,
  existing: TemplateRow | null,
  onboarded: () => Promise<boolean>,
): Promise<string | null> {
  const price = maxPriceOf(payload);
  const stored = existing?.max_price_bid_amount ?? null;
  const submitted = Boolean(existing?.meta_template_id);
  if (submitted && stored === null && price !== null) return MAX_PRICE_EDIT_MESSAGES.noAdd;
  if (submitted && stored !== null && price === null && payload.category === 'MARKETING')
    return MAX_PRICE_EDIT_MESSAGES.noRemove;
  if (price === null || price === stored || (await onboarded())) return null;
  return MAX_PRICE_EDIT_MESSAGES.needsMmApi;
}

/** The max price part of an edit at Meta: sent only when it changed (a template leaving marketing sends none). */
export function maxPriceEdit(payload: TemplatePayload, stored: number | null) {
  const price = maxPriceOf(payload);
  if (price === null || price === stored) return {};
  return { optimization_spec: optimizationSpec(price) };
}

/**
 * Whether an edit changes the max price and nothing else Meta keeps. Stored JSON comes back from jsonb with its
 * keys reordered: compared by value, not by text.
 */
export function onlyMaxPriceChanged(payload: TemplatePayload, existing: TemplateRow): boolean {
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? {})), b ?? {});
  return (
    maxPriceOf(payload) !== existing.max_price_bid_amount &&
    payload.category === existing.category &&
    (payload.message_send_ttl_seconds ?? null) === existing.message_send_ttl_seconds &&
    same(payload.components, existing.components) &&
    same(payload.static_variables, existing.static_variables) &&
    same(payload.dynamic_variables, existing.dynamic_variables)
  );
}
