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
  if (audience.type === 'segment') {
    return `${segmentName(audience)}, ${share} its contacts (${about}), chosen when it starts; contacts who opted out are left out${usLeftOut}.`;
  }
  const who =
    audience.type === 'filtered'
      ? audience.tags.length > 0
        ? `${share} the contacts tagged ${tagList(audience.tags)}`
        : `${share} the contacts of tags since deleted`
      : `${share} the contacts`;
  return `${who.charAt(0).toUpperCase()}${who.slice(1)} (${about}), chosen when it starts; contacts who opted out are left out${usLeftOut}.`;
}

/** 'Segment: VIP buyers'; one the server no longer names is said to be deleted rather than left blank. */
function segmentName(audience: BroadcastAudienceSummary): string {
  return audience.segment ? `Segment: ${audience.segment.name}` : 'A deleted segment';
}

/** A segment's rules in words, a line per group, as they were when the broadcast was created. */
function SegmentRules({ audience }: { audience: BroadcastAudienceSummary }) {
  const rules = audience.segment?.rules ?? [];
  if (rules.length === 0) return null;
  return (
    <ul aria-label="Segment rules" data-testid="report-segment-rules" className="mt-2 space-y-0.5 pl-3">
      {rules.map((rule, index) => (
        <li key={index}>{rule}</li>
      ))}
    </ul>
  );
}

/**
 * A started broadcast to a segment: which segment it went to and its rules as they were, since the segment may
 * have changed since (or been deleted). Other audiences need no such reminder: the report's recipients say it.
 */
export function ReportSegment({ audience }: { audience: BroadcastAudienceSummary }) {
  if (audience.type !== 'segment') return null;
  const share = audience.percentage === 100 ? 'All' : `${audience.percentage}% of`;
  const recipients = `${formatCount(audience.recipients)} recipient${audience.recipients === 1 ? '' : 's'}`;
  const usLeftOut = audience.leave_out_us ? '; +1 (US) numbers were left out' : '';
  return (
    <section
      aria-label="Who it was sent to"
      className="mb-4 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700"
    >
      <p className="font-medium text-slate-900">{segmentName(audience)}</p>
      <p className="mt-1">
        {`${share} its contacts (${recipients}), chosen when it started; contacts who opted out were left out${usLeftOut}.`}
      </p>
      <SegmentRules audience={audience} />
    </section>
  );
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
      <SegmentRules audience={audience} />
    </section>
  );
}
