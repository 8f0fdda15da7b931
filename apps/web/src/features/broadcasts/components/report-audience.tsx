import type { BroadcastAudienceSummary } from '@herald/contracts';
import { formatDateTime } from '../../../lib/date-time';
import { formatCount } from '../format';

/** 'Gold', 'Gold or VIP', 'Gold, Silver or VIP'. */
function tagList(tags: string[]): string {
  return tags.length < 2 ? (tags[0] ?? '') : `${tags.slice(0, -1).join(', ')} or ${tags.at(-1)}`;
}

/** Who a broadcast goes to, in words: its audience as stored when it was created. */
export function audienceSentence(audience: BroadcastAudienceSummary): string {
  const about = `about ${formatCount(audience.recipients)} recipient${audience.recipients === 1 ? '' : 's'}`;
  const share = audience.percentage === 100 ? 'all' : `${audience.percentage}% of`;
  const usLeftOut = audience.leave_out_us ? '; +1 (US) numbers are left out' : '';
  if (audience.type === 'list') {
    const from = audience.from_broadcast_id ? ` from broadcast #${audience.from_broadcast_id}` : '';
    return `The ${formatCount(audience.recipients)} recipients chosen${from} when it was created${usLeftOut}.`;
  }
  const who =
    audience.type === 'filtered'
      ? audience.tags.length > 0
        ? `${share} the contacts tagged ${tagList(audience.tags)}`
        : `${share} the contacts of tags since deleted`
      : `${share} the contacts`;
  return `${who.charAt(0).toUpperCase()}${who.slice(1)} (${about}), chosen when it starts; contacts who opted out are left out${usLeftOut}.`;
}

/** A scheduled broadcast has no recipient yet, so its report says when it starts and who will receive it. */
export function ReportAudience({
  scheduled,
  audience,
}: {
  scheduled: string;
  audience: BroadcastAudienceSummary;
}) {
  return (
    <section
      aria-label="Who will receive it"
      className="mb-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <p className="font-medium">
        Scheduled for <time dateTime={scheduled}>{formatDateTime(scheduled)}</time>. Nothing has been sent
        yet.
      </p>
      <p className="mt-1">Who will receive it: {audienceSentence(audience)}</p>
    </section>
  );
}
