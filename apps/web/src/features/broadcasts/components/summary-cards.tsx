import type { BroadcastTotals } from '@herald/contracts';
import { formatCount, percentOf } from '../format';
import { HANDED_TO_WHATSAPP, outcomeInSentence } from '../outcome-labels';

/** undefined while loading; null when the server sent no totals. */
type SummaryCardsProps = { totals: BroadcastTotals | null | undefined };

type Card = {
  label: string;
  value: (t: BroadcastTotals) => number;
  note?: (t: BroadcastTotals) => string;
  /** Lines under the note, shown only when they have something to say. */
  extra?: (t: BroadcastTotals) => string[];
  tone: string;
};

/**
 * Under Failed: the recipients WhatsApp did not deliver to for reasons that are not a failure of the broadcast
 * (its per-user marketing limit, a number not on WhatsApp, a phone off for the message's whole time-to-live), and
 * those Herald did not send to because of the account's frequency cap. The server counts them apart from
 * `failed`, so they are added here ("plus"), keeping the spec's eight cards.
 */
function notFailedButUndelivered(t: BroadcastTotals): string[] {
  const lines: string[] = [];
  if (t.limited > 0) lines.push(`plus ${formatCount(t.limited)} ${outcomeInSentence('limited')}`);
  if (t.not_on_whatsapp > 0)
    lines.push(`plus ${formatCount(t.not_on_whatsapp)} ${outcomeInSentence('not_on_whatsapp')}`);
  // A server from before the expired outcome leaves it out: none expired then.
  const expired = t.expired ?? 0;
  if (expired > 0) lines.push(`plus ${formatCount(expired)} ${outcomeInSentence('expired')}`);
  // Never sent, so no failure either; a server from before the frequency cap leaves it out.
  const skipped = t.skipped ?? 0;
  if (skipped > 0) lines.push(`plus ${formatCount(skipped)} ${outcomeInSentence('skipped')}`);
  return lines;
}

/** Under Messages Sent: accepted by WhatsApp but not yet reported sent (decision 036). */
const handedLine = (t: BroadcastTotals) =>
  t.handed > 0 ? [`plus ${formatCount(t.handed)} ${HANDED_TO_WHATSAPP}`] : [];

/** Under Total Recipients: a scheduled broadcast's recipients, not yet sent anything, so not in any percentage. */
const scheduledLine = (t: BroadcastTotals) =>
  t.scheduled_recipients > 0 ? `plus ${formatCount(t.scheduled_recipients)} in scheduled broadcasts` : '';

const ofRecipients = (pick: (t: BroadcastTotals) => number) => (t: BroadcastTotals) =>
  `${percentOf(pick(t), t.recipients)} of recipients`;

const CARDS: Card[] = [
  { label: 'Total Broadcasts', value: (t) => t.broadcasts, tone: 'text-slate-900' },
  { label: 'Total Recipients', value: (t) => t.recipients, note: scheduledLine, tone: 'text-slate-900' },
  {
    label: 'Messages Sent',
    value: (t) => t.sent,
    note: ofRecipients((t) => t.sent),
    extra: handedLine,
    tone: 'text-sky-700',
  },
  {
    label: 'Delivered',
    value: (t) => t.delivered,
    note: ofRecipients((t) => t.delivered),
    tone: 'text-emerald-700',
  },
  { label: 'Read', value: (t) => t.read, note: ofRecipients((t) => t.read), tone: 'text-violet-700' },
  {
    label: 'Failed',
    value: (t) => t.failed,
    note: ofRecipients((t) => t.failed),
    extra: notFailedButUndelivered,
    tone: 'text-red-700',
  },
  { label: 'Scheduled', value: (t) => t.scheduled, note: () => 'broadcasts waiting', tone: 'text-amber-700' },
  { label: 'Sending', value: (t) => t.sending, note: () => 'broadcasts in progress', tone: 'text-sky-700' },
];

/**
 * Broadcast history: the eight summary cards, over the broadcasts the list shows (its dates and search).
 * Percentages are of the recipients of broadcasts that have started (decision 036).
 */
export function SummaryCards({ totals }: SummaryCardsProps) {
  return (
    <ul aria-label="Summary" className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-4">
      {CARDS.map((card) => (
        <li
          key={card.label}
          aria-label={card.label}
          aria-busy={totals === undefined ? true : undefined}
          className="rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
        >
          <p className="text-sm text-slate-500">{card.label}</p>
          {totals === undefined ? (
            <div aria-hidden="true" className="mt-2 h-7 w-16 animate-pulse rounded bg-slate-100" />
          ) : (
            <p className={`mt-1 text-2xl font-semibold tracking-tight ${card.tone}`}>
              {totals ? formatCount(card.value(totals)) : '—'}
            </p>
          )}
          <p className="mt-0.5 h-4 text-xs text-slate-500">{totals && card.note ? card.note(totals) : ''}</p>
          {totals && card.extra
            ? card.extra(totals).map((line) => (
                <p key={line} className="text-xs text-slate-500">
                  {line}
                </p>
              ))
            : null}
        </li>
      ))}
    </ul>
  );
}
