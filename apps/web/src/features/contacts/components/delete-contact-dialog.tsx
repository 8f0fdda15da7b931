import { useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { Contact } from '@herald/contracts';
import { secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { ModalDialog } from '../../../components/modal-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteContactMutation } from '../api';

const dangerButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60';

/** Asks before DELETE /recipient/{id}/; focus starts on Cancel, the safe choice. */
export function DeleteContactDialog({ contact, onClose }: { contact: Contact; onClose: () => void }) {
  const [deleteContact, { isLoading }] = useDeleteContactMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);

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
    <ModalDialog
      title="Delete Contact"
      description={`Delete ${contact.recipient_name}? This cannot be undone.`}
      onClose={onClose}
      busy={isLoading}
      initialFocus={cancel}
      size="sm"
    >
      {failure ? (
        <div className="mb-4">
          <FormAlert>{failure}</FormAlert>
        </div>
      ) : null}
      <div className="flex justify-end gap-2">
        <button
          ref={cancel}
          type="button"
          className={secondaryButtonClass}
          disabled={isLoading}
          onClick={onClose}
        >
          Cancel
        </button>
        <button
          type="button"
          className={dangerButtonClass}
          disabled={isLoading}
          onClick={() => void handleDelete()}
        >
          {isLoading ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </ModalDialog>
  );
}
