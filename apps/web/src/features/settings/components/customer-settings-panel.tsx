import { RETENTION_YEARS, type AccountSettings } from '@herald/contracts';
import { useState } from 'react';
import { CheckboxSetting, SelectSetting } from './setting-controls';
import { SettingsTabForm } from './settings-tab-form';

type PanelProps = { wabaId: string | null; stored: AccountSettings; mailServerConfigured: boolean };

export const NO_MAIL_SERVER =
  'No mail server is configured: Herald cannot send e-mail until SMTP_URL is set.';

/** Customer Settings, saved per account. */
export function CustomerSettingsPanel({ wabaId, stored, mailServerConfigured }: PanelProps) {
  const [notify, setNotify] = useState(stored.notify_by_email);
  const [retention, setRetention] = useState(stored.retention_years);
  return (
    <SettingsTabForm
      title="Customer Settings"
      wabaId={wabaId}
      update={{ notify_by_email: notify, retention_years: retention }}
    >
      <CheckboxSetting
        label="Notify Customers via Email"
        checked={notify}
        onChange={setNotify}
        disabled={wabaId === null}
        hint={
          <>
            <p>E-mails you at your sign-in address when a broadcast completes.</p>
            {mailServerConfigured ? null : <p className="font-medium text-amber-700">{NO_MAIL_SERVER}</p>}
          </>
        }
      />
      <SelectSetting
        label="Data Retention"
        options={RETENTION_YEARS.map((years) => ({
          label: years === 1 ? '1 Year' : `${years} Years`,
          value: years,
        }))}
        value={retention}
        onChange={setRetention}
        disabled={wabaId === null}
        hint="Each recipient's delivery details and replies older than this are deleted daily; a broadcast's totals are kept."
      />
    </SettingsTabForm>
  );
}
