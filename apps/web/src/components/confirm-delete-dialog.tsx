import { useRef, type ReactNode } from 'react';
import { dangerButtonClass, secondaryButtonClass } from './button-classes';
import { FormAlert } from './form-alert';
import { ModalDialog } from './modal-dialog';

/**
 * The one "are you sure?" dialog for deletions: focus starts on Cancel (the safe choice), the Delete button
 * reads 'Deleting...' while busy, and a failure is shown inside the dialog so the user can retry or cancel.
 */
export function ConfirmDeleteDialog({
  title,
  description,
  children,
  busy,
  failure,
  onConfirm,
  onClose,
}: {
  title: string;
  description: string;
  children?: ReactNode;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      title={title}
      description={description}
      onClose={onClose}
      busy={busy}
      initialFocus={cancel}
      size="sm"
    >
      {children}
      {failure ? (
        <div className="mb-4">
          <FormAlert>{failure}</FormAlert>
        </div>
      ) : null}
      <div className="flex justify-end gap-2">
        <button ref={cancel} type="button" className={secondaryButtonClass} disabled={busy} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={dangerButtonClass} disabled={busy} onClick={onConfirm}>
          {busy ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </ModalDialog>
  );
}
