import { useId } from 'react';
import type { Segment, SegmentNames } from '@herald/contracts';
import { secondaryButtonClass } from '../../../components/button-classes';
import { PencilIcon, TrashIcon } from '../../../components/icons';
import { TextLink } from '../../../components/text-link';
import { segmentLines } from '../segment-names';

type SegmentListProps = {
  segments: readonly Segment[];
  names: SegmentNames;
  /** The segment open in the builder, marked in the list. */
  editingId: number | undefined;
  onEdit: (segment: Segment) => void;
  onDelete: (segment: Segment) => void;
};

const actionClass = `${secondaryButtonClass} px-3 py-1.5`;

function SegmentItem({
  segment,
  names,
  editing,
  onEdit,
  onDelete,
}: Omit<SegmentListProps, 'segments' | 'editingId'> & { segment: Segment; editing: boolean }) {
  const nameId = useId();
  return (
    <li
      aria-labelledby={nameId}
      className={`flex flex-wrap items-start justify-between gap-4 p-4 sm:p-5 ${editing ? 'bg-emerald-50/60' : ''}`}
    >
      <div className="min-w-0 flex-1">
        <h3 id={nameId} className="font-semibold break-words text-slate-900">
          {segment.name}
        </h3>
        <ul className="mt-1 space-y-0.5 text-sm text-slate-600">
          {segmentLines(segment, names).map((line, index) => (
            <li key={index} className="break-words">
              {line}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <TextLink
          to={`/customers?segment=${segment.id}`}
          className="text-sm sm:mr-2"
          aria-describedby={nameId}
        >
          View customers
        </TextLink>
        {/* Named "Edit" and "Delete" like every row's; the segment's name tells them apart for a screen reader. */}
        <button
          type="button"
          className={actionClass}
          aria-describedby={nameId}
          onClick={() => onEdit(segment)}
        >
          <PencilIcon width={16} height={16} />
          Edit
        </button>
        <button
          type="button"
          className={`${actionClass} hover:text-red-700`}
          aria-describedby={nameId}
          onClick={() => onDelete(segment)}
        >
          <TrashIcon width={16} height={16} />
          Delete
        </button>
      </div>
    </li>
  );
}

/** The saved segments, each with its rules in words and what can be done with it. */
export function SegmentList({ segments, names, editingId, onEdit, onDelete }: SegmentListProps) {
  return (
    <ul
      aria-label="Saved segments"
      className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      {segments.map((segment) => (
        <SegmentItem
          key={segment.id}
          segment={segment}
          names={names}
          editing={segment.id === editingId}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      ))}
    </ul>
  );
}
