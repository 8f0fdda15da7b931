import { useState } from 'react';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { CalendarIcon, DownloadIcon } from '../../../components/icons';

const dateInputClass =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none';

/** Spec §2 Broadcast history: the date-range filter. As specified, it only logs what was chosen. */
export function DateRangeFilter() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  return (
    <div className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
      <CalendarIcon className="mb-2 text-slate-400" />
      <label className="text-sm text-slate-600">
        <span className="mb-1 block text-xs font-medium">From</span>
        <input
          type="date"
          value={from}
          max={to || undefined}
          onChange={(e) => setFrom(e.target.value)}
          className={dateInputClass}
        />
      </label>
      <label className="text-sm text-slate-600">
        <span className="mb-1 block text-xs font-medium">To</span>
        <input
          type="date"
          value={to}
          min={from || undefined}
          onChange={(e) => setTo(e.target.value)}
          className={dateInputClass}
        />
      </label>
      <div className="ml-auto flex gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => console.log('Export broadcasts', { from, to })}
        >
          <DownloadIcon width={16} height={16} />
          Export
        </button>
        <button
          type="button"
          className={primaryButtonClass}
          onClick={() => console.log('Apply date range', { from, to })}
        >
          Apply now
        </button>
      </div>
    </div>
  );
}
