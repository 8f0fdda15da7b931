import { useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { timeZoneLabel } from '../lib/time-zone';
import { ChevronRightIcon } from './icons';

type Period = 'AM' | 'PM';
/** A time of day as the picker shows it: hours 1–12, minutes 0–59, AM/PM. */
type TimeOfDay = { hour: number; minute: number; period: Period };

/** Clear resets the time to 12:00 AM, which is also where a new pick starts. */
const MIDNIGHT: TimeOfDay = { hour: 12, minute: 0, period: 'AM' };

/** The quick times. */
const QUICK_TIMES: ReadonlyArray<{ label: string; time: TimeOfDay }> = [
  { label: '9:00 AM', time: { hour: 9, minute: 0, period: 'AM' } },
  { label: '12:00 PM', time: { hour: 12, minute: 0, period: 'PM' } },
  { label: '5:00 PM', time: { hour: 5, minute: 0, period: 'PM' } },
  { label: '8:00 PM', time: { hour: 8, minute: 0, period: 'PM' } },
];

/** The minute grid steps by 5. */
const MINUTE_GRID = Array.from({ length: 12 }, (_, i) => i * 5);

const WEEKDAYS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];

const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const selectionLabel = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

function startOfMonth(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), 1);
}

function addMonths(month: Date, count: number): Date {
  return new Date(month.getFullYear(), month.getMonth() + count, 1);
}

function timeOf(date: Date): TimeOfDay {
  const hours = date.getHours();
  return {
    hour: hours % 12 === 0 ? 12 : hours % 12,
    minute: date.getMinutes(),
    period: hours < 12 ? 'AM' : 'PM',
  };
}

/** `day` (any time) at `time`, in local time. */
function combine(day: Date, time: TimeOfDay): Date {
  const hours = (time.hour % 12) + (time.period === 'PM' ? 12 : 0);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, time.minute);
}

function sameTime(a: TimeOfDay, b: TimeOfDay): boolean {
  return a.hour === b.hour && a.minute === b.minute && a.period === b.period;
}

/** The days shown for `month`: blanks (null) up to its first weekday, then each day. */
function monthDays(month: Date): Array<Date | null> {
  const blanks = Array.from({ length: month.getDay() }, () => null);
  const count = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  const days = Array.from(
    { length: count },
    (_, i) => new Date(month.getFullYear(), month.getMonth(), i + 1),
  );
  return [...blanks, ...days];
}

type DateTimePickerProps = {
  /** The chosen moment in local time, or null before a day is picked. */
  value: Date | null;
  onChange: (value: Date) => void;
  /** Days before this one are disabled; today by default. */
  min?: Date;
  /** Days after this one are disabled. */
  max?: Date;
  /** Names the picker (a group) for assistive technology. */
  label: string;
  /** The id of a message about the picker (an error), linked to the group. */
  describedBy?: string;
};

const tabClass = (selected: boolean) =>
  `flex-1 rounded-md px-3 py-1.5 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-emerald-600 ${
    selected ? 'bg-white text-slate-900 shadow-xs' : 'text-slate-500 hover:text-slate-700'
  }`;

const chipClass = (pressed: boolean) =>
  `rounded-md border px-2 py-1.5 text-xs font-medium transition focus-visible:outline-2 focus-visible:outline-emerald-600 ${
    pressed
      ? 'border-emerald-600 bg-emerald-700 text-white'
      : 'border-slate-200 bg-white text-slate-700 hover:border-emerald-300 hover:bg-emerald-50'
  }`;

const timeInputClass =
  'w-14 rounded-lg border border-slate-300 bg-white px-2 py-2 text-center text-lg font-semibold text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none';

/**
 * A date tab (a month calendar; days before `min` or after `max` disabled), then a time tab
 * (hour 1–12 and minute 0–59 inputs taking digits only, AM/PM, quick times, a 5-minute grid, and Clear back
 * to 12:00 AM). Picking a day moves to the time tab. The value is a local-time Date.
 */
export function DateTimePicker({ value, onChange, min, max, label, describedBy }: DateTimePickerProps) {
  const id = useId();
  const minDay = startOfDay(min ?? new Date());
  const maxDay = max ? startOfDay(max) : null;
  const [tab, setTab] = useState<'date' | 'time'>('date');
  const [month, setMonth] = useState(() => startOfMonth(value ?? minDay));
  // The time chosen before any day is: applied when the day is picked.
  const [draftTime, setDraftTime] = useState<TimeOfDay>(MIDNIGHT);
  // What the user is typing in the hour and minute inputs (null: show the current value).
  const [hourText, setHourText] = useState<string | null>(null);
  const [minuteText, setMinuteText] = useState<string | null>(null);
  const dateTab = useRef<HTMLButtonElement>(null);
  const timeTab = useRef<HTMLButtonElement>(null);

  const time = value ? timeOf(value) : draftTime;
  const selectedDay = value ? startOfDay(value) : null;

  function setTime(next: TimeOfDay) {
    setDraftTime(next);
    if (value) onChange(combine(value, next));
  }

  function pickDay(day: Date) {
    onChange(combine(day, time));
    setTab('time');
  }

  function handleTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = tab === 'date' ? 'time' : 'date';
    setTab(next);
    (next === 'date' ? dateTab : timeTab).current?.focus();
  }

  function typeHour(text: string) {
    const digits = text.replace(/\D/g, '').slice(0, 2);
    const hour = Number(digits);
    if (digits !== '' && (hour < 1 || hour > 12)) {
      // '0' may still become '01'–'09'; anything else out of range is refused.
      if (digits === '0') setHourText(digits);
      return;
    }
    setHourText(digits);
    if (digits !== '') setTime({ ...time, hour });
  }

  function typeMinute(text: string) {
    const digits = text.replace(/\D/g, '').slice(0, 2);
    const minute = Number(digits);
    if (digits !== '' && minute > 59) return;
    setMinuteText(digits);
    if (digits !== '') setTime({ ...time, minute });
  }

  const prevDisabled = addMonths(month, -1) < startOfMonth(minDay);
  const nextDisabled = maxDay !== null && addMonths(month, 1) > maxDay;

  return (
    <div
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
      className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-3 shadow-xs"
    >
      <p className="mb-3 text-sm text-slate-600" aria-live="polite">
        {value ? (
          <>
            Selected: <span className="font-medium text-slate-900">{selectionLabel.format(value)}</span>
          </>
        ) : (
          'No date selected'
        )}
      </p>
      {/* Which clock the picked time is read on: the browser's zone, with its offset on the chosen day. */}
      <p className="-mt-2 mb-3 text-xs text-slate-500">Times in {timeZoneLabel(value ?? new Date())}</p>

      <div
        role="tablist"
        aria-label={`${label}: date or time`}
        className="mb-3 flex gap-1 rounded-lg bg-slate-100 p-1"
      >
        <button
          ref={dateTab}
          type="button"
          role="tab"
          id={`${id}-date-tab`}
          aria-selected={tab === 'date'}
          aria-controls={`${id}-date-panel`}
          tabIndex={tab === 'date' ? 0 : -1}
          onClick={() => setTab('date')}
          onKeyDown={handleTabKey}
          className={tabClass(tab === 'date')}
        >
          Date
        </button>
        <button
          ref={timeTab}
          type="button"
          role="tab"
          id={`${id}-time-tab`}
          aria-selected={tab === 'time'}
          aria-controls={`${id}-time-panel`}
          tabIndex={tab === 'time' ? 0 : -1}
          onClick={() => setTab('time')}
          onKeyDown={handleTabKey}
          className={tabClass(tab === 'time')}
        >
          Time
        </button>
      </div>

      {tab === 'date' ? (
        <div role="tabpanel" id={`${id}-date-panel`} aria-labelledby={`${id}-date-tab`}>
          <div className="mb-2 flex items-center justify-between">
            <button
              type="button"
              aria-label="Previous month"
              disabled={prevDisabled}
              onClick={() => setMonth(addMonths(month, -1))}
              className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:opacity-30"
            >
              <ChevronRightIcon width={18} height={18} className="rotate-180" />
            </button>
            <p className="text-sm font-semibold text-slate-900" aria-live="polite">
              {monthLabel.format(month)}
            </p>
            <button
              type="button"
              aria-label="Next month"
              disabled={nextDisabled}
              onClick={() => setMonth(addMonths(month, 1))}
              className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:opacity-30"
            >
              <ChevronRightIcon width={18} height={18} />
            </button>
          </div>
          <div className="grid grid-cols-7 gap-1 text-center">
            {WEEKDAYS.map((weekday) => (
              <span key={weekday} aria-hidden="true" className="py-1 text-xs font-medium text-slate-500">
                {weekday}
              </span>
            ))}
            {monthDays(month).map((day, i) => {
              if (!day) return <span key={`blank-${i}`} />;
              const disabled = day < minDay || (maxDay !== null && day > maxDay);
              const selected = selectedDay?.getTime() === day.getTime();
              const today = startOfDay(new Date()).getTime() === day.getTime();
              return (
                <button
                  key={day.getTime()}
                  type="button"
                  aria-label={dayLabel.format(day)}
                  aria-pressed={selected}
                  aria-current={today ? 'date' : undefined}
                  disabled={disabled}
                  onClick={() => pickDay(day)}
                  className={`h-9 rounded-md text-sm transition focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:cursor-not-allowed disabled:text-slate-300 ${
                    selected
                      ? 'bg-emerald-700 font-semibold text-white'
                      : `text-slate-700 enabled:hover:bg-emerald-50 ${today ? 'font-semibold text-emerald-700 ring-1 ring-emerald-200' : ''}`
                  }`}
                >
                  {day.getDate()}
                </button>
              );
            })}
          </div>
        </div>
      ) : (
        <div role="tabpanel" id={`${id}-time-panel`} aria-labelledby={`${id}-time-tab`} className="space-y-3">
          <div className="flex items-center justify-center gap-2">
            <input
              type="text"
              inputMode="numeric"
              aria-label="Hour"
              maxLength={2}
              value={hourText ?? String(time.hour)}
              onChange={(event) => typeHour(event.target.value)}
              onFocus={(event) => event.target.select()}
              onBlur={() => setHourText(null)}
              className={timeInputClass}
            />
            <span aria-hidden="true" className="text-lg font-semibold text-slate-500">
              :
            </span>
            <input
              type="text"
              inputMode="numeric"
              aria-label="Minute"
              maxLength={2}
              value={minuteText ?? String(time.minute).padStart(2, '0')}
              onChange={(event) => typeMinute(event.target.value)}
              onFocus={(event) => event.target.select()}
              onBlur={() => setMinuteText(null)}
              className={timeInputClass}
            />
            <div className="ml-2 flex gap-1" role="group" aria-label="AM or PM">
              {(['AM', 'PM'] as const).map((period) => (
                <button
                  key={period}
                  type="button"
                  aria-pressed={time.period === period}
                  onClick={() => setTime({ ...time, period })}
                  className={chipClass(time.period === period)}
                >
                  {period}
                </button>
              ))}
            </div>
          </div>

          <div>
            <p className="mb-1.5 text-xs font-medium text-slate-500">Quick select</p>
            <div className="grid grid-cols-4 gap-1" role="group" aria-label="Quick times">
              {QUICK_TIMES.map((quick) => (
                <button
                  key={quick.label}
                  type="button"
                  aria-pressed={sameTime(time, quick.time)}
                  onClick={() => setTime(quick.time)}
                  className={chipClass(sameTime(time, quick.time))}
                >
                  {quick.label}
                </button>
              ))}
            </div>
          </div>

          <div>
            <p className="mb-1.5 text-xs font-medium text-slate-500">Minutes</p>
            <div className="grid grid-cols-6 gap-1" role="group" aria-label="Minutes">
              {MINUTE_GRID.map((minute) => {
                const text = `:${String(minute).padStart(2, '0')}`;
                return (
                  <button
                    key={minute}
                    type="button"
                    aria-pressed={time.minute === minute}
                    onClick={() => setTime({ ...time, minute })}
                    className={chipClass(time.minute === minute)}
                  >
                    {text}
                  </button>
                );
              })}
            </div>
          </div>

          <div className="flex items-center justify-between border-t border-slate-100 pt-2">
            <button
              type="button"
              onClick={() => setTab('date')}
              className="text-xs font-medium text-slate-500 hover:text-slate-700"
            >
              Change date
            </button>
            <button
              type="button"
              onClick={() => setTime(MIDNIGHT)}
              className="rounded-md px-2 py-1 text-xs font-semibold text-emerald-700 hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-emerald-600"
            >
              Clear
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
