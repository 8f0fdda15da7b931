import { useId } from 'react';
import type { ReactNode } from 'react';
import { BROADCAST_PERCENTAGE, type BroadcastEstimateResponse } from '@herald/contracts';
import type { RecipientCount } from '../broadcast-form';
import type { RecipientMode } from '../broadcast-form';
import { formatCount } from '../format';
import { SectionCard } from './section-card';

type SelectedRecipientsSectionProps = {
  mode: RecipientMode;
  count: RecipientCount;
  /**
   * Whether the contact total is the spec's fallback rather than the real count; in the Segment mode, whether the
   * segment's contacts are not known yet.
   */
  estimated: boolean;
  percentage: number;
  onPercentage: (percentage: number) => void;
  /** The chosen contacts the server leaves out, and why; null until it answers. */
  leftOut: BroadcastEstimateResponse['left_out'] | null;
  /** Under the figures: the messaging limit against them. */
  children?: ReactNode;
};

/** The count of who is sent to, what was left out and why, and the percentage slider (1–100). */
export function SelectedRecipientsSection({
  mode,
  count,
  estimated,
  percentage,
  onPercentage,
  leftOut,
  children,
}: SelectedRecipientsSectionProps) {
  const sliderId = useId();
  return (
    <SectionCard title="Selected Recipients">
      <div className="grid grid-cols-2 items-end gap-4">
        <div>
          <output
            aria-label="Selected recipients"
            className="block text-3xl font-semibold tracking-tight text-slate-900"
          >
            {formatCount(count.selected)}
          </output>
          <p className="mt-1 text-sm text-slate-500">
            {mode === 'all'
              ? `${percentage}% of ${estimated ? 'about ' : ''}${formatCount(count.audience)} contacts`
              : mode === 'segment'
                ? estimated
                  ? `${percentage}% of the segment’s contacts`
                  : `${percentage}% of ${formatCount(count.audience)} contacts in the segment`
                : 'contacts in the selected tags'}
          </p>
        </div>
        {mode === 'filter' ? (
          <div className="text-right">
            <output
              aria-label="Recipients after percentage"
              className="block text-xl font-semibold text-emerald-700"
            >
              {formatCount(count.sampled)}
            </output>
            <p className="mt-1 text-sm text-slate-500">receive it at {percentage}%</p>
          </div>
        ) : null}
      </div>
      {mode === 'filter' ? (
        <p className="text-xs text-slate-500">
          A contact with several of the chosen tags counts once per tag here, and receives the broadcast once.
        </p>
      ) : null}
      {leftOut ? <LeftOut leftOut={leftOut} /> : null}
      {children}

      <div>
        <div className="mb-1.5 flex items-center justify-between">
          <label htmlFor={sliderId} className="text-sm font-medium text-slate-700">
            Percentage of recipients
          </label>
          <span aria-hidden="true" className="text-sm font-semibold text-slate-900">
            {percentage}%
          </span>
        </div>
        <input
          id={sliderId}
          type="range"
          min={BROADCAST_PERCENTAGE.min}
          max={BROADCAST_PERCENTAGE.max}
          step={1}
          value={percentage}
          aria-valuetext={`${percentage}%`}
          onChange={(event) => onPercentage(Number(event.target.value))}
          className="w-full accent-emerald-600"
        />
        <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-500">
          <span>{BROADCAST_PERCENTAGE.min}%</span>
          <span>{BROADCAST_PERCENTAGE.max}%</span>
        </div>
      </div>
    </SectionCard>
  );
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Who of the chosen contacts is not sent to, one click away: the figures above already leave them out. */
function LeftOut({ leftOut }: { leftOut: BroadcastEstimateResponse['left_out'] }) {
  const total = leftOut.opted_out + leftOut.us_numbers;
  if (total === 0) return null;
  return (
    <details className="text-sm text-slate-600">
      <summary className="cursor-pointer font-medium text-slate-700">
        {plural(total, 'chosen contact', 'chosen contacts')} left out
      </summary>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {leftOut.opted_out > 0 ? (
          <li>{plural(leftOut.opted_out, 'has', 'have')} opted out of your broadcasts</li>
        ) : null}
        {leftOut.us_numbers > 0 ? (
          <li>
            {plural(leftOut.us_numbers, 'US number', 'US numbers')} (+1): WhatsApp does not deliver marketing
            templates to them
          </li>
        ) : null}
      </ul>
    </details>
  );
}
