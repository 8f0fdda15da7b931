import { useState } from 'react';
import type { Segment } from '@herald/contracts';
import { primaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { PlusIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { TextLink } from '../../../components/text-link';
import { errorText } from '../../../lib/error-text';
import { useListSegmentsQuery } from '../../../lib/segments-api';
import { useAppSelector } from '../../../lib/store-hooks';
import { useGetTagsQuery } from '../../contacts';
import { useGetSegmentBroadcastsQuery } from '../api';
import { DeleteSegmentDialog } from '../components/delete-segment-dialog';
import { SegmentBuilder } from '../components/segment-builder';
import { SegmentList } from '../components/segment-list';
import { segmentNames } from '../segment-names';

/** The builder: closed, open on a new segment, or open on a saved one. */
type Building = { segment?: Segment } | null;

/**
 * Segments: the saved audiences with their rules in words, and the builder that makes and changes them. One
 * builder at a time, above the list, so the list stays in view to compare with while building.
 */
export function SegmentsPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const { data: segments, error, isLoading } = useListSegmentsQuery();
  const { data: tags } = useGetTagsQuery(wabaId);
  const { data: broadcasts } = useGetSegmentBroadcastsQuery(wabaId);
  const [building, setBuilding] = useState<Building>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const names = segmentNames(tags, broadcasts);

  return (
    <>
      <TextLink to="/customers" className="mb-3 inline-block text-sm">
        Back to Customers
      </TextLink>
      <PageHeader
        title="Segments"
        description="Audiences by what your contacts are and did. Use one as a broadcast's recipients or to filter Customers."
        actions={
          building ? null : (
            <button type="button" className={primaryButtonClass} onClick={() => setBuilding({})}>
              <PlusIcon width={18} height={18} />
              New segment
            </button>
          )
        }
      />

      {building ? (
        <SegmentBuilder
          // A new builder for each segment opened, so no input of the last one lingers.
          key={building.segment?.id ?? 'new'}
          segment={building.segment}
          tags={tags ?? []}
          broadcasts={broadcasts}
          onClose={() => setBuilding(null)}
        />
      ) : null}

      {isLoading ? (
        <p className="text-sm text-slate-500">Loading segments...</p>
      ) : error ? (
        <FormAlert>{errorText(error)}</FormAlert>
      ) : segments?.length ? (
        <SegmentList
          segments={segments}
          names={names}
          editingId={building?.segment?.id}
          onEdit={(segment) => setBuilding({ segment })}
          onDelete={setDeleting}
        />
      ) : (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-500">
          No segments yet.
        </p>
      )}

      {deleting ? (
        <DeleteSegmentDialog
          segment={deleting}
          // The builder must not go on editing a segment that is gone.
          onDeleted={(gone) => setBuilding((current) => (current?.segment?.id === gone.id ? null : current))}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
