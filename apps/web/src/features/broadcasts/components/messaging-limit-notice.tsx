import { useId } from 'react';
import { audienceLimitLine, overLimitMessage } from '@herald/contracts';
import type { BroadcastEstimateResponse } from '@herald/contracts';
import { formatClockTime, formatCount } from '../format';
import { frequencyCapLine } from '../new-broadcast-text';
import { FieldError } from './section-card';

type MessagingLimitNoticeProps = {
  /** The server's figures for the broadcast as it would be sent (US numbers left out when chosen). */
  estimate: BroadcastEstimateResponse | undefined;
  /** How many recipients have +1 numbers, counted with them kept in (so the offer stays while it is taken). */
  usNumbers: number;
  failed: boolean;
  spreadOverLimit: boolean;
  onSpreadOverLimit: (spread: boolean) => void;
  leaveOutUsNumbers: boolean;
  onLeaveOutUsNumbers: (leaveOut: boolean) => void;
  /** The server's refusal naming `recipients` (over the limit with spreading off). */
  error?: string;
};

const checkboxClass = 'mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-emerald-600';

/**
 * Under the Selected Recipients figures: the recipients against what is left of the 24-hour messaging limit,
 * those the account's frequency cap would skip, the choice to spread a larger broadcast over the limit, and the
 * +1 (US) numbers a marketing template does not reach.
 */
export function MessagingLimitNotice(props: MessagingLimitNoticeProps) {
  const { estimate, usNumbers, error } = props;
  const spreadId = useId();
  const leaveOutId = useId();
  const errorId = useId();
  const left = estimate?.messaging_limit.left ?? null;
  const over = estimate !== undefined && left !== null && estimate.new_recipients > left;
  const freesAt = estimate?.messaging_limit.frees_at ?? null;
  const capLine = frequencyCapLine(estimate?.frequency_cap);
  const capped = (estimate?.frequency_cap?.skipped ?? 0) > 0;

  return (
    <div className="space-y-3">
      <output aria-label="Messaging limit" className="block text-sm font-medium text-slate-700">
        {estimate
          ? audienceLimitLine(estimate.recipients, left)
          : props.failed
            ? 'The messaging limit could not be checked now; Herald checks it again when you send.'
            : 'Checking your 24-hour messaging limit...'}
      </output>

      {capLine ? (
        <p
          data-testid="frequency-cap-line"
          className={`text-sm ${capped ? 'rounded-lg bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200 ring-inset' : 'text-slate-600'}`}
        >
          {capLine}
        </p>
      ) : null}

      {over ? (
        <div className="space-y-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
          <p>
            {overLimitMessage(estimate.new_recipients, left)}
            {freesAt ? ` The limit starts to free up about ${formatClockTime(freesAt)}.` : ''}
          </p>
          <div className="flex items-start gap-2">
            <input
              id={spreadId}
              type="checkbox"
              checked={props.spreadOverLimit}
              onChange={(event) => props.onSpreadOverLimit(event.target.checked)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className={checkboxClass}
            />
            <label htmlFor={spreadId} className="cursor-pointer">
              Spread over the 24-hour limit: send up to the limit now and continue automatically as it frees
            </label>
          </div>
        </div>
      ) : null}

      {usNumbers > 0 ? (
        <div className="space-y-2 rounded-lg bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200 ring-inset">
          <p>
            {formatCount(usNumbers)} {usNumbers === 1 ? 'recipient has a' : 'recipients have'} +1 (US){' '}
            {usNumbers === 1 ? 'number' : 'numbers'}. WhatsApp does not deliver marketing templates to US
            numbers.
          </p>
          <div className="flex items-start gap-2">
            <input
              id={leaveOutId}
              type="checkbox"
              checked={props.leaveOutUsNumbers}
              onChange={(event) => props.onLeaveOutUsNumbers(event.target.checked)}
              className={checkboxClass}
            />
            <label htmlFor={leaveOutId} className="cursor-pointer">
              Leave them out
            </label>
          </div>
        </div>
      ) : null}

      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}
