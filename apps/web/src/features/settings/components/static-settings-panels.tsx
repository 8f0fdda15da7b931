import { FormField } from '../../../components/form-field';
import { SettingsSection } from './setting-controls';

// Account Settings (the user's e-mail and password) get their own panel with the account change endpoint;
// until it is wired here, the tab keeps the spec's two inputs.

export function AccountSettingsPanel() {
  return (
    <SettingsSection title="Account Settings">
      <div className="grid max-w-sm gap-4">
        <FormField label="Change Email" name="email" type="email" autoComplete="email" />
        <FormField label="Change Password" name="password" type="password" autoComplete="new-password" />
      </div>
    </SettingsSection>
  );
}
