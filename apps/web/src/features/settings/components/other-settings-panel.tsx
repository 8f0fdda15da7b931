import type { AccountSettings, AccountSettingsResponse } from '@herald/contracts';
import { useState } from 'react';
import { applyTheme } from '../../../lib/theme';
import { CheckboxSetting } from './setting-controls';
import { SettingsTabForm } from './settings-tab-form';

type PanelProps = { wabaId: string | null; stored: AccountSettings };

/** Other Settings: the dark theme and the beta features, saved per account (decision 040). */
export function OtherSettingsPanel({ wabaId, stored }: PanelProps) {
  const [dark, setDark] = useState(stored.dark_theme);
  const [beta, setBeta] = useState(stored.beta_features);

  // The saved theme shows at once; the header's next read keeps it on every screen and load.
  function applySaved(saved: AccountSettingsResponse) {
    if (saved.waba_id === wabaId) applyTheme(saved.settings.dark_theme);
  }

  return (
    <SettingsTabForm
      title="Other Settings"
      wabaId={wabaId}
      update={{ dark_theme: dark, beta_features: beta }}
      onSaved={applySaved}
    >
      <CheckboxSetting
        label="Enable Dark Theme for Dashboard"
        checked={dark}
        onChange={setDark}
        disabled={wabaId === null}
        hint="Every screen turns dark while this account is selected."
      />
      <CheckboxSetting
        label="Activate Beta Features"
        checked={beta}
        onChange={setBeta}
        disabled={wabaId === null}
        hint="Shows a Beta badge in the header. No feature is in beta at the moment."
      />
    </SettingsTabForm>
  );
}
