import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { TemplateForm } from '../components/template-form';
import { initialFormState } from '../template-form-state';

/** Spec §2 Create template (/template/create-template). */
export function CreateTemplatePage() {
  const [initial] = useState(initialFormState);
  return (
    <>
      <PageHeader
        title="Create Template"
        description="Design a message template and send it to WhatsApp for review."
      />
      <TemplateForm mode="create" initial={initial} />
    </>
  );
}
