import toast from 'react-hot-toast';
import type { Segment } from '@herald/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteSegmentMutation } from '../../../lib/segments-api';

/** Asks before deleting a segment; broadcasts already sent to it keep the recipients they had. */
export function DeleteSegmentDialog({
  segment,
  onDeleted,
  onClose,
}: {
  segment: Segment;
  onDeleted: (segment: Segment) => void;
  onClose: () => void;
}) {
  const [deleteSegment, { isLoading, error }] = useDeleteSegmentMutation();
  async function confirm() {
    try {
      await deleteSegment(segment.id).unwrap();
      toast.success('Segment deleted');
      onDeleted(segment);
      onClose();
    } catch (failure) {
      console.error('Deleting the segment failed', failure);
    }
  }
  return (
    <ConfirmDialog
      title="Delete segment?"
      description={`"${segment.name}" will be deleted. Broadcasts already sent to it keep their recipients.`}
      busy={isLoading}
      failure={error ? errorText(error) : null}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
