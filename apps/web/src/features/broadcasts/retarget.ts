import { RECIPIENT_OUTCOME_NAMES, RETARGET_OUTCOMES } from '@herald/contracts';
import type { BroadcastAudience, RecipientOutcome, RetargetFilter, RetargetOutcome } from '@herald/contracts';
import { OUTCOME_LABELS } from './outcome-labels';

/* New broadcast opened from a delivery report's filter (/broadcast/new?retarget=ID&filter=F). */

const isOutcome = (value: string): value is RetargetOutcome =>
  (RETARGET_OUTCOMES as readonly string[]).includes(value);

/** 'true' / 'false' as the report's `replied` and `clicked` take them; anything else is no answer. */
function readBoolean(value: string | null): boolean | undefined | 'bad' {
  if (value === null || value === '') return undefined;
  return value === 'true' ? true : value === 'false' ? false : 'bad';
}

/**
 * The report filter of the URL: one name (an outcome such as 'failed', or 'not_read', 'replied', 'not_replied',
 * 'clicked', 'not_clicked'), or the report API's own query ('outcome=failed&replied=false&clicked=false'). Null
 * for anything else.
 */
export function parseRetargetFilter(text: string): RetargetFilter | null {
  const value = text.trim();
  if (value === '' || value === 'all') return {};
  if (value === 'replied') return { replied: true };
  if (value === 'not_replied') return { replied: false };
  if (value === 'clicked') return { clicked: true };
  if (value === 'not_clicked') return { clicked: false };
  if (isOutcome(value)) return { outcome: value };
  if (!value.includes('=')) return null;
  const query = new URLSearchParams(value);
  const outcome = query.get('outcome');
  const replied = readBoolean(query.get('replied'));
  const clicked = readBoolean(query.get('clicked'));
  if (replied === 'bad' || clicked === 'bad' || (outcome !== null && outcome !== '' && !isOutcome(outcome)))
    return null;
  return {
    ...(outcome ? { outcome: outcome as RetargetOutcome } : {}),
    ...(replied === undefined ? {} : { replied }),
    ...(clicked === undefined ? {} : { clicked }),
  };
}

/** The audience named by `?retarget=&filter=`; null without `retarget`, 'invalid' when it cannot be read. */
export function retargetFromSearch(search: URLSearchParams): BroadcastAudience | null | 'invalid' {
  const id = search.get('retarget');
  if (id === null) return null;
  const broadcastId = Number(id);
  const filter = parseRetargetFilter(search.get('filter') ?? '');
  if (!Number.isInteger(broadcastId) || broadcastId < 1 || filter === null) return 'invalid';
  return { kind: 'broadcast_recipients', broadcast_id: broadcastId, filter };
}

/**
 * The filter as the report names it: 'Not read', 'Failed', 'Replied', 'Delivered, did not reply', 'Did not click',
 * 'All recipients'.
 */
export function retargetFilterLabel(filter: RetargetFilter): string {
  const parts: string[] = [];
  if (filter.outcome === 'not_read') parts.push('Not read');
  else if (filter.outcome && (RECIPIENT_OUTCOME_NAMES as string[]).includes(filter.outcome)) {
    parts.push(OUTCOME_LABELS[filter.outcome as RecipientOutcome]);
  }
  const words = [
    filter.replied === undefined ? null : filter.replied ? 'replied' : 'did not reply',
    filter.clicked === undefined ? null : filter.clicked ? 'clicked' : 'did not click',
  ];
  for (const word of words) {
    if (word) parts.push(parts.length === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word);
  }
  return parts.length === 0 ? 'All recipients' : parts.join(', ');
}

/** New broadcast's audience line: 'Recipients: 12 from broadcast "Spring Sale" (Not read)'. */
export function retargetLine(recipients: string, broadcastName: string, filter: RetargetFilter): string {
  return `Recipients: ${recipients} from broadcast "${broadcastName}" (${retargetFilterLabel(filter)})`;
}
