import { useRef, useState } from 'react';
import { TEMPLATE_MESSAGES } from '@herald/contracts';
import type { TemplateListItem } from '@herald/contracts';
import { secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { ModalDialog } from '../../../components/modal-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteTemplateMutation } from '../api';

const dangerButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * Spec §5 Delete template: asks 'Are you sure you want to delete the template?', then DELETE /meta/templates/
 * with Meta's id (Herald's id for a draft never sent). The list page reloads through the cache tags.
 */
export function DeleteTemplateDialog({
  template,
  onClose,
}: {
  template: TemplateListItem;
  onClose: () => void;
}) {
  const [deleteTemplate, { isLoading }] = useDeleteTemplateMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  async function handleDelete() {
    try {
      await deleteTemplate({
        template_id: template.template_id ?? String(template.id),
        template_name: template.template_name,
      }).unwrap();
      onClose();
    } catch (error) {
      console.error('Deleting the template failed', error);
      setFailure(errorText(error));
    }
  }

  return (
    <ModalDialog
      title="Delete Template"
      description={TEMPLATE_MESSAGES.deleteConfirm}
      onClose={onClose}
      busy={isLoading}
      initialFocus={cancel}
      size="sm"
    >
      <p className="mb-4 text-sm text-slate-700">
        <span className="font-medium">{template.template_name}</span> ({template.language_code})
      </p>
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
