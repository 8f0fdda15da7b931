import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { useSelectedAccountSettings } from '../../../lib/account-settings-api';
import { TemplateForm } from '../components/template-form';
import { initialFormState } from '../template-form-state';

/** Spec §2 Create template (/template/create-template); the language starts at the account's default. */
export function CreateTemplatePage() {
  const [initial] = useState(initialFormState);
  const { data: settings } = useSelectedAccountSettings();
  return (
    <>
      <PageHeader
        title="Create Template"
        description="Design a message template and send it to WhatsApp for review."
      />
      <TemplateForm
        mode="create"
        initial={initial}
        defaultLanguage={settings?.settings.default_language ?? null}
      />
    </>
  );
}
