import { MESSAGING_LIMIT_OF_TIER, numberSendability } from '@herald/contracts';
import type { PhoneNumber } from '@herald/contracts';
import { formatCount } from './format';

/** 'GREEN' → 'Green'; Meta's words for quality and throughput are upper-case enums. */
function word(value: string | null | undefined): string {
  if (!value) return 'Unknown';
  const lower = value.toLowerCase().replaceAll('_', ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/**
 * 'TIER_1K' (or Meta's older bare '1000') → '1,000 recipients / 24 h'; other tiers as Meta names them.
 */
export function messagingLimitText(tier: string | null): string {
  if (!tier) return 'Unknown';
  if (/^\d+$/.test(tier)) return `${formatCount(Number(tier))} recipients / 24 h`;
  if (!Object.hasOwn(MESSAGING_LIMIT_OF_TIER, tier)) return tier;
  const limit = MESSAGING_LIMIT_OF_TIER[tier];
  return limit === null || limit === undefined ? 'Unlimited' : `${formatCount(limit)} recipients / 24 h`;
}

/** The option's text: who the recipient sees the message from, and its quality, the figure that can stop it. */
export function numberOptionText(number: PhoneNumber): string {
  const text = `${number.display_phone_number} · ${number.verified_name} · Quality: ${word(number.quality_rating)}`;
  return numberSendability(number).sendable ? text : `${text} (cannot send)`;
}

/** The line under the select for the chosen number: what bounds how fast and to how many it sends. */
export function numberDetailText(number: PhoneNumber): string {
  return `Throughput: ${word(number.throughput?.level)} · Messaging limit: ${messagingLimitText(number.messaging_limit_tier)}`;
}

/** The number a broadcast sends from when the user has not picked one: the first that can send. */
export function defaultNumberId(numbers: readonly PhoneNumber[]): string {
  return numbers.find((number) => numberSendability(number).sendable)?.id ?? '';
}
