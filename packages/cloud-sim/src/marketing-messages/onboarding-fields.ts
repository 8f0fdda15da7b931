import type { SandboxContext } from '../context';
import { pickFields } from '../fields';
import type { Waba } from '../state';

export const ONBOARDING_FIELD = 'marketing_messages_onboarding_status';
const OWNER_FIELD = 'owner_business_info';

/** The portfolio's terms as Graph shows them on a business node and in `owner_business_info`. */
export function termsView(ctx: SandboxContext, businessId: string) {
  const { status, time } = ctx.state.marketingMessages.termsOf(businessId);
  return { status, ...(time === undefined ? {} : { time }) };
}

/**
 * The WABA node's MM API fields, only when `fields=` names them (they are not among Graph's default fields):
 * `marketing_messages_onboarding_status` (ONBOARDED, ELIGIBLE or why not) and `owner_business_info` with the
 * portfolio's terms.
 */
export function wabaOnboardingFields(ctx: SandboxContext, waba: Waba, fields: string[]) {
  return {
    ...(fields.includes(ONBOARDING_FIELD) && {
      [ONBOARDING_FIELD]: ctx.state.marketingMessages.wabaStatus(waba.id, waba.businessId),
    }),
    // Graph's sub-selection (`owner_business_info{…}`) answers the whole object here.
    ...(fields.some((f) => f === OWNER_FIELD || f.startsWith(`${OWNER_FIELD}{`)) && {
      [OWNER_FIELD]: {
        id: waba.businessId,
        name: waba.name,
        [ONBOARDING_FIELD]: termsView(ctx, waba.businessId),
      },
    }),
  };
}

/**
 * `GET /{business-id}`: the portfolio's id and name (the sandbox names a portfolio after its first WABA), and
 * its MM API terms when `fields=` names them.
 */
export function businessNode(ctx: SandboxContext, businessId: string, fields: string | undefined) {
  const node = { id: businessId, name: ctx.state.wabasOf(businessId)[0]?.name ?? '' };
  const wanted = (fields ?? '').split(',').map((f) => f.trim());
  return {
    ...pickFields(node, fields),
    ...(wanted.includes(ONBOARDING_FIELD) && { [ONBOARDING_FIELD]: termsView(ctx, businessId) }),
  };
}
