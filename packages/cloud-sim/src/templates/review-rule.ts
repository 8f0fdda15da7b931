import { REJECTION_REASONS } from './template-store';
import type { MessageTemplate, RejectionReason } from './template-store';

type Verdict = { status: 'APPROVED'; reason: null } | { status: 'REJECTED'; reason: RejectionReason };

/**
 * The sandbox's stand-in for Meta's review, chosen so tests can ask for either outcome:
 * a name containing "reject", or a body containing "REJECT_ME", is REJECTED; everything else is APPROVED.
 * The reason is INVALID_FORMAT unless the name names another one after "reject_", e.g.
 * `promo_reject_scam` → SCAM, `reject_incorrect_category` → INCORRECT_CATEGORY.
 */
export function automaticVerdict(template: Pick<MessageTemplate, 'name' | 'components'>): Verdict {
  const body = template.components.find((c) => c.type === 'BODY');
  const bodyText = typeof body?.text === 'string' ? body.text : '';
  if (!template.name.includes('reject') && !bodyText.includes('REJECT_ME')) {
    return { status: 'APPROVED', reason: null };
  }
  const named = REJECTION_REASONS.find((r) => template.name.includes(`reject_${r.toLowerCase()}`));
  return { status: 'REJECTED', reason: named ?? 'INVALID_FORMAT' };
}
