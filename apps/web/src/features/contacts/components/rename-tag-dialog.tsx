import { useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { Tag } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { FormField } from '../../../components/form-field';
import { ModalDialog } from '../../../components/modal-dialog';
import { errorText } from '../../../lib/error-text';
import { fieldErrors } from '../../../lib/field-errors';
import { useRenameTagMutation } from '../api';
import { contactCount } from './contact-count';

/** Renames a tag; says first how many contacts carry it, since all of them show the new name. */
export function RenameTagDialog({ tag, onClose }: { tag: Tag; onClose: () => void }) {
  const [name, setName] = useState(tag.name);
  const [error, setError] = useState<{ name?: string; form?: string }>({});
  const [renameTag, { isLoading }] = useRenameTagMutation();

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    if (!name.trim()) {
      setError({ name: 'Tag name is required' });
      return;
    }
    try {
      const renamed = await renameTag({ id: tag.id, name: name.trim() }).unwrap();
      toast.success(`Tag renamed to "${renamed.name}" on ${contactCount(renamed.count)}`);
      onClose();
    } catch (failure) {
      console.error('Renaming the tag failed', failure);
      const byField = fieldErrors(failure);
      setError(byField.name ? { name: byField.name } : { form: errorText(failure) });
    }
  }

  return (
    <ModalDialog
      title="Rename Tag"
      description={`"${tag.name}" is on ${contactCount(tag.count)}; each of them will show the new name.`}
      onClose={onClose}
      busy={isLoading}
      size="sm"
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="space-y-4">
        {error.form ? <FormAlert>{error.form}</FormAlert> : null}
        <FormField
          label="Tag name"
          value={name}
          maxLength={100}
          autoComplete="off"
          error={error.name}
          onChange={(event) => {
            setName(event.target.value);
            setError({});
          }}
        />
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButtonClass} disabled={isLoading} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButtonClass} disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Rename'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
