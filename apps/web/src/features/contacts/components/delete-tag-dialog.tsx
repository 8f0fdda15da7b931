import { useState } from 'react';
import toast from 'react-hot-toast';
import type { Tag } from '@herald/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteTagMutation } from '../api';
import { contactCount } from './contact-count';

/** Asks before DELETE /recipient/tags/{id}/, naming how many contacts lose the tag (they stay). */
export function DeleteTagDialog({
  tag,
  onDeleted,
  onClose,
}: {
  tag: Tag;
  onDeleted: (tag: Tag) => void;
  onClose: () => void;
}) {
  const [deleteTag, { isLoading }] = useDeleteTagMutation();
  const [failure, setFailure] = useState<string | null>(null);

  async function handleDelete() {
    try {
      const deleted = await deleteTag(tag.id).unwrap();
      toast.success(`Tag "${deleted.name}" deleted from ${contactCount(deleted.count)}`);
      onDeleted(deleted);
      onClose();
    } catch (error) {
      console.error('Deleting the tag failed', error);
      setFailure(errorText(error));
    }
  }

  return (
    <ConfirmDialog
      title="Delete Tag"
      description={`Delete the tag "${tag.name}"? It will be removed from ${contactCount(tag.count)}; the contacts stay.`}
      busy={isLoading}
      failure={failure}
      onConfirm={() => void handleDelete()}
      onClose={onClose}
    />
  );
}
