import type { Segment } from '@herald/contracts';
import { TextLink } from '../../../components/text-link';

type SegmentFilterProps = {
  segments: readonly Segment[] | undefined;
  /** The segment the list is filtered by; undefined: all contacts. */
  segmentId: number | undefined;
  onChange: (segmentId: number | undefined) => void;
};

/** The `segment` search parameter as a segment id; anything but a positive whole number is no filter. */
export function segmentIdOf(param: string | null): number | undefined {
  return param && /^\d{1,15}$/.test(param) && Number(param) > 0 ? Number(param) : undefined;
}

/** Narrows the list to a saved segment's members, with the way to the segments themselves. */
export function SegmentFilter({ segments, segmentId, onChange }: SegmentFilterProps) {
  // A segment from the link that is not (yet) in the list still shows as chosen, by its number.
  const unlisted = segmentId !== undefined && !segments?.some((segment) => segment.id === segmentId);
  return (
    <>
      <label className="inline-flex items-center gap-2">
        Segment
        <select
          value={segmentId ?? ''}
          onChange={(event) => onChange(segmentIdOf(event.target.value))}
          className="max-w-48 rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none sm:max-w-64"
        >
          <option value="">All contacts</option>
          {unlisted ? <option value={segmentId}>{`Segment #${segmentId}`}</option> : null}
          {segments?.map((segment) => (
            <option key={segment.id} value={segment.id}>
              {segment.name}
            </option>
          ))}
        </select>
      </label>
      <TextLink to="/customers/segments" className="mr-3">
        Segments
      </TextLink>
    </>
  );
}
