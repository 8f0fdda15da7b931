import { useState } from 'react';
import toast from 'react-hot-toast';
import type { Contact } from '@herald/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteContactMutation } from '../api';

/** Asks before DELETE /recipient/{id}/. */
export function DeleteContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const [deleteContact, { isLoading }] = useDeleteContactMutation();
  const [failure, setFailure] = useState<string | null>(null);

  async function handleDelete() {
    try {
      await deleteContact(contact.id).unwrap();
      toast.success('Contact deleted');
      onClose();
    } catch (error) {
      console.error('Deleting the contact failed', error);
      setFailure(errorText(error));
    }
  }

  return (
    <ConfirmDialog
      title="Delete Contact"
      description={`Delete ${contact.recipient_name}? This cannot be undone.`}
      busy={isLoading}
      failure={failure}
      onConfirm={() => void handleDelete()}
      onClose={onClose}
    />
  );
}
