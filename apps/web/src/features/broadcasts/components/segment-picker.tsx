import { useId } from 'react';
import { Link } from 'react-router';
import type { Segment } from '@herald/contracts';
import { FieldError, inputClass, labelClass } from './section-card';

export type SegmentPickerProps = {
  segmentId: number | null;
  onSegmentId: (segmentId: number | null) => void;
  /** The account's saved segments; undefined while loading. */
  segments: Segment[] | undefined;
  failed: boolean;
  error?: string;
};

/**
 * New broadcast's Segment mode: a saved segment by name, with its rules in words under it so the user sees whom
 * it holds before sending. Segments are built in Customers; with none yet, the way there.
 */
export function SegmentPicker({ segmentId, onSegmentId, segments, failed, error }: SegmentPickerProps) {
  const selectId = useId();
  const errorId = useId();
  if (failed)
    return (
      <p role="alert" className="text-sm text-red-600">
        Failed to load segments.
      </p>
    );
  if (segments === undefined) return <p className="text-sm text-slate-500">Loading segments...</p>;
  if (segments.length === 0)
    return (
      <p className="rounded-lg bg-slate-50 px-3 py-3 text-sm text-slate-600">
        No saved segments yet.{' '}
        <Link to="/customers/segments" className="font-medium text-emerald-700 hover:underline">
          Build a segment
        </Link>
      </p>
    );

  const chosen = segments.find((segment) => segment.id === segmentId) ?? null;
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={selectId} className={labelClass}>
          Choose a segment
        </label>
        <select
          id={selectId}
          value={chosen ? String(chosen.id) : ''}
          onChange={(event) => onSegmentId(event.target.value === '' ? null : Number(event.target.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={inputClass(Boolean(error))}
        >
          <option value="">Select a segment</option>
          {segments.map((segment) => (
            <option key={segment.id} value={String(segment.id)}>
              {segment.name}
            </option>
          ))}
        </select>
        {error ? <FieldError id={errorId}>{error}</FieldError> : null}
      </div>
      {chosen ? (
        <ul
          aria-label={`Rules of ${chosen.name}`}
          data-testid="segment-rules"
          className="space-y-1 rounded-lg bg-slate-50 px-3 py-3 text-sm text-slate-700"
        >
          {chosen.description.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
