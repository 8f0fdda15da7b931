import { CLICK_DEFINITIONS, REPLY_DEFINITIONS, type BroadcastReport } from '@herald/contracts';
import { formatCount, formatPercent } from '../format';

/**
 * The report's rates over the delivered (delivered or read) recipients: the reply rate, and for a broadcast with
 * a tracked link the click rate and where the link leads.
 */
export function ReportRates({ report }: { report: BroadcastReport }) {
  const delivered = report.outcomes.delivered + report.outcomes.read;
  const destination = report.broadcast.link_destination ?? null;
  const clickRate = report.click_rate ?? null;
  return (
    <div className="mb-4 space-y-1 text-sm text-slate-700">
      <div className="flex flex-wrap gap-x-6 gap-y-1">
        <p title={REPLY_DEFINITIONS.reply_rate}>
          Reply rate: <strong className="font-semibold">{formatPercent(report.reply_rate)}</strong>
          <span className="text-slate-500">
            {' '}
            ({formatCount(report.replied)} of {formatCount(delivered)} delivered replied)
          </span>
        </p>
        {destination !== null ? (
          <p title={CLICK_DEFINITIONS.click_rate}>
            Click rate:{' '}
            <strong className="font-semibold">{clickRate === null ? '—' : formatPercent(clickRate)}</strong>
            <span className="text-slate-500"> ({formatCount(report.clicked ?? 0)} clicked)</span>
          </p>
        ) : null}
      </div>
      {destination !== null ? (
        <p className="text-slate-600">
          Tracked link leads to{' '}
          <a
            href={destination}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium break-all text-emerald-700 hover:underline"
          >
            {destination}
          </a>
        </p>
      ) : null}
    </div>
  );
}
