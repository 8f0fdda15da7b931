import { useId } from 'react';
import type { BroadcastReport } from '@herald/contracts';
import { formatCount } from '../format';
import { OUTCOME_LABELS } from '../outcome-labels';

type FailureReasonsProps = { reasons: BroadcastReport['failure_reasons'] };

/**
 * 'Why messages did not arrive': the report's failures grouped by reason, most frequent first (the server's
 * order), each with what happened and what to do, in plain words.
 */
export function FailureReasons({ reasons }: FailureReasonsProps) {
  const titleId = useId();
  if (reasons.length === 0) return null;
  return (
    <section
      aria-labelledby={titleId}
      className="mb-4 rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
    >
      <h2 id={titleId} className="text-base font-semibold text-slate-900">
        Why messages did not arrive
      </h2>
      <ul className="mt-3 divide-y divide-slate-100">
        {reasons.map((reason) => (
          <li
            key={`${reason.outcome}-${reason.code ?? reason.title}`}
            aria-label={reason.title}
            className="py-3 first:pt-0 last:pb-0"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <h3 className="font-medium break-words text-slate-900">
                {reason.code !== null ? <span className="text-red-700">{reason.code} · </span> : null}
                {reason.title}
              </h3>
              <p className="text-sm text-slate-600">
                <span className="font-semibold text-slate-900 tabular-nums">{formatCount(reason.count)}</span>{' '}
                {reason.count === 1 ? 'recipient' : 'recipients'}
                {/* The outcome, unless the reason's title already is it (131049 is 'Limited by WhatsApp'). */}
                {reason.title === OUTCOME_LABELS[reason.outcome]
                  ? ''
                  : ` · ${OUTCOME_LABELS[reason.outcome]}`}
              </p>
            </div>
            <p className="mt-1 text-sm text-slate-700">{reason.explanation}</p>
            <p className="mt-1 text-sm text-slate-700">
              <span className="font-medium">What to do:</span> {reason.action}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
