import { frequencyCapText, type BroadcastAudience, type BroadcastEstimateResponse } from '@herald/contracts';
import type { BroadcastFormState, RecipientCount } from './broadcast-form';
import { formatDateTime } from '../../lib/date-time';
import { formatCount } from './format';
import { retargetFilterLabel } from './retarget';

/* The New broadcast screen's lines in words, apart from the hook so they can be read (and tested) alone. */

/** 'from broadcast "Spring Sale" (Not read)'; null without a retarget, or until the earlier broadcast is known. */
export function retargetFromText(
  retarget: BroadcastAudience | null,
  sourceName: string | undefined,
): string | null {
  return retarget && sourceName
    ? `from broadcast "${sourceName}" (${retargetFilterLabel(retarget.filter)})`
    : null;
}

/**
 * The Recipients section's line for an earlier broadcast's recipients: who they are and how many the server
 * counts, why they cannot be named, or that they are loading. '' without a retarget.
 */
export function retargetLineText(
  retarget: BroadcastAudience | null,
  sourceFailed: boolean,
  serverRecipients: string,
  retargetFrom: string | null,
): string {
  if (!retarget) return '';
  if (sourceFailed) return 'The broadcast these recipients come from was not found in this account.';
  return retargetFrom
    ? `Recipients: ${serverRecipients} ${retargetFrom}`
    : 'Loading the earlier broadcast’s recipients...';
}

/**
 * The chosen segment with the percentage, 'Segment: VIP buyers (55%)' (its id until the list names it); null
 * outside the Segment mode or before a segment is chosen.
 */
export function segmentText(
  state: Pick<BroadcastFormState, 'retarget' | 'mode' | 'segmentId' | 'percentage'>,
  segmentName: string | undefined,
): string | null {
  if (state.retarget || state.mode !== 'segment' || state.segmentId === null) return null;
  return `Segment: ${segmentName ?? `#${state.segmentId}`} (${state.percentage}%)`;
}

/**
 * The Summary's Recipients: the server's count of an earlier broadcast's recipients, or the contacts, tags or
 * segment chosen here with the percentage (and, for contacts and tags, what it gives). `segmentLine` is
 * segmentText's.
 */
export function summaryRecipients(
  state: Pick<BroadcastFormState, 'retarget' | 'mode' | 'tagIds' | 'percentage'>,
  count: RecipientCount,
  serverRecipients: string,
  retargetFrom: string | null,
  segmentLine: string | null = null,
): string {
  if (state.retarget) return `${serverRecipients} ${retargetFrom ?? ''}`.trim();
  if (state.mode === 'segment') return segmentLine ?? 'No segment selected';
  if (state.mode === 'all') return `All Contacts, ${state.percentage}% (${formatCount(count.sampled)})`;
  if (state.tagIds.length === 0) return 'No tag selected';
  const tagWord = state.tagIds.length === 1 ? 'tag' : 'tags';
  return `${state.tagIds.length} ${tagWord}, ${state.percentage}% (${formatCount(count.sampled)})`;
}

/** The Summary's Sending Time: now, the scheduled local time, or that none is chosen yet. */
export function summarySendingTime(state: Pick<BroadcastFormState, 'scheduled' | 'scheduledAt'>): string {
  if (!state.scheduled) return 'Immediately';
  return state.scheduledAt ? formatDateTime(state.scheduledAt) : 'Not selected';
}

/**
 * The account's frequency cap against these recipients: how many it would skip if the broadcast started now, or
 * that none is over it. Null when the cap does not apply (no cap, a template that is not marketing, or a server
 * before it).
 */
export function frequencyCapLine(cap: BroadcastEstimateResponse['frequency_cap']): string | null {
  if (!cap) return null;
  const text = frequencyCapText(cap.messages, cap.days);
  return cap.skipped > 0
    ? `${formatCount(cap.skipped)} of these recipients will be skipped: they already had ${text}`
    : `Frequency cap: ${text}. Nobody here is over it.`;
}
