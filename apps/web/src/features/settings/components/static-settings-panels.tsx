import { FormField } from '../../../components/form-field';
import { CheckboxSetting, SelectSetting, SettingsSection } from './setting-controls';

// Spec §2: these tabs are static; nothing on them is saved.

export function MessageSettingsPanel() {
  return (
    <SettingsSection title="Message Settings">
      <SelectSetting label="Default Language" options={['English', 'Spanish', 'French']} />
      <CheckboxSetting label="Require Approval for New Templates" />
    </SettingsSection>
  );
}

export function CustomerSettingsPanel() {
  return (
    <SettingsSection title="Customer Settings">
      <CheckboxSetting label="Notify Customers via Email" />
      <SelectSetting label="Data Retention" options={['1 Year', '3 Years', '5 Years']} />
    </SettingsSection>
  );
}

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

export function OtherSettingsPanel() {
  return (
    <SettingsSection title="Other Settings">
      <CheckboxSetting label="Enable Dark Theme for Dashboard" />
      <CheckboxSetting label="Activate Beta Features" />
    </SettingsSection>
  );
}
