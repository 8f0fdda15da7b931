import { useState } from 'react';
import { TEMPLATE_MESSAGES } from '@herald/contracts';
import type { TemplateListItem } from '@herald/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { errorText } from '../../../lib/error-text';
import { useDeleteTemplateMutation } from '../api';

/**
 * Delete template: asks 'Are you sure you want to delete the template?', then DELETE /meta/templates/
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
    <ConfirmDialog
      title="Delete Template"
      description={TEMPLATE_MESSAGES.deleteConfirm}
      busy={isLoading}
      failure={failure}
      onConfirm={() => void handleDelete()}
      onClose={onClose}
    >
      <p className="mb-4 text-sm text-slate-700">
        <span className="font-medium">{template.template_name}</span> ({template.language_code})
      </p>
    </ConfirmDialog>
  );
}
