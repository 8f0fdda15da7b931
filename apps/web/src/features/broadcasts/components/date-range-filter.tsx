import { useState } from 'react';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { CalendarIcon, DownloadIcon } from '../../../components/icons';

const dateInputClass =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none';

/** Local days (YYYY-MM-DD) of the Scheduled time, both included; '' for no bound. */
export type DayRange = { from: string; to: string };

type DateRangeFilterProps = {
  /** The range the list shows now. */
  applied: DayRange;
  /** 'Apply now': the list and the cards show this range. */
  onApply: (range: DayRange) => void;
  /** Export: the list of this range (applied too, so the file and the screen agree) as CSV. */
  onExport: (range: DayRange) => void;
  exporting: boolean;
  /** The time zone the days are read in, shown so a day's bounds are not a surprise. */
  timeZone: string;
};

/** Broadcast history: the date-range filter with Export and 'Apply now' (both do what they say). */
export function DateRangeFilter({ applied, onApply, onExport, exporting, timeZone }: DateRangeFilterProps) {
  const [from, setFrom] = useState(applied.from);
  const [to, setTo] = useState(applied.to);
  const backwards = from !== '' && to !== '' && from > to;
  return (
    <div className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
      <CalendarIcon className="mb-2 text-slate-500" />
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
      <p className="mb-2 text-xs text-slate-500">
        {backwards ? (
          <span role="alert" className="text-red-700">
            The To date must not be before the From date.
          </span>
        ) : (
          `Scheduled dates in ${timeZone}`
        )}
      </p>
      <div className="ml-auto flex gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={backwards || exporting}
          onClick={() => onExport({ from, to })}
        >
          <DownloadIcon width={16} height={16} />
          {exporting ? 'Exporting...' : 'Export'}
        </button>
        <button
          type="button"
          className={primaryButtonClass}
          disabled={backwards}
          onClick={() => onApply({ from, to })}
        >
          Apply now
        </button>
      </div>
    </div>
  );
}
