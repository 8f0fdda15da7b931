import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { useSelectedAccountSettings } from '../../../lib/account-settings-api';
import { TemplateForm } from '../components/template-form';
import { initialFormState } from '../template-form-state';

export const APPROVAL_NOTE =
  'Require Approval for New Templates is on: this template is saved as a draft and goes to WhatsApp for review when someone presses Submit in the list.';

/** Create template (/template/create-template); the language starts at the account's default. */
export function CreateTemplatePage() {
  const [initial] = useState(initialFormState);
  const { data: settings } = useSelectedAccountSettings();
  return (
    <>
      <PageHeader
        title="Create Template"
        description="Design a message template and send it to WhatsApp for review."
      />
      {settings?.settings.require_template_approval ? (
        <p className="mb-4 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          {APPROVAL_NOTE}
        </p>
      ) : null}
      <TemplateForm
        mode="create"
        initial={initial}
        defaultLanguage={settings?.settings.default_language ?? null}
      />
    </>
  );
}
