import { SETTINGS_LANGUAGES, type AccountSettings } from '@herald/contracts';
import { useState } from 'react';
import { CheckboxSetting, SelectSetting } from './setting-controls';
import { SettingsTabForm } from './settings-tab-form';

type PanelProps = { wabaId: string | null; stored: AccountSettings };

/** Message Settings, saved per account and followed by new templates. */
export function MessageSettingsPanel({ wabaId, stored }: PanelProps) {
  const [language, setLanguage] = useState(stored.default_language);
  const [approval, setApproval] = useState(stored.require_template_approval);
  return (
    <SettingsTabForm
      title="Message Settings"
      wabaId={wabaId}
      update={{ default_language: language, require_template_approval: approval }}
    >
      <SelectSetting
        label="Default Language"
        options={SETTINGS_LANGUAGES.map(({ label, code }) => ({ label, value: code }))}
        value={language}
        onChange={setLanguage}
        disabled={wabaId === null}
        hint="New templates start in this language."
      />
      <CheckboxSetting
        label="Require Approval for New Templates"
        checked={approval}
        onChange={setApproval}
        disabled={wabaId === null}
        hint="New templates are kept as drafts and sent to WhatsApp for review only when someone presses Submit."
      />
    </SettingsTabForm>
  );
}
