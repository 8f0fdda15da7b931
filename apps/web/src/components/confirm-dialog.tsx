import { useRef, type ReactNode } from 'react';
import { dangerButtonClass, secondaryButtonClass } from './button-classes';
import { FormAlert } from './form-alert';
import { ModalDialog } from './modal-dialog';

/**
 * The one "are you sure?" dialog for deletions (and other acts that cannot be undone): focus starts on the
 * safe choice, the confirm button reads 'Deleting...' (or `busyLabel`) while busy, and a failure is shown
 * inside the dialog so the user can retry or back out.
 */
export function ConfirmDialog({
  title,
  description,
  children,
  busy,
  failure,
  onConfirm,
  onClose,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting...',
  dismissLabel = 'Cancel',
}: {
  title: string;
  description: string;
  children?: ReactNode;
  busy: boolean;
  failure: string | null;
  onConfirm: () => void;
  onClose: () => void;
  confirmLabel?: string;
  busyLabel?: string;
  dismissLabel?: string;
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
          {dismissLabel}
        </button>
        <button type="button" className={dangerButtonClass} disabled={busy} onClick={onConfirm}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
