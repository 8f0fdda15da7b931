import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { PageHeader } from '../../../components/page-header';
import { WhatsAppAccountsPanel } from '../../accounts/components/whatsapp-accounts-panel';
import {
  AccountSettingsPanel,
  CustomerSettingsPanel,
  MessageSettingsPanel,
  OtherSettingsPanel,
} from '../components/static-settings-panels';

type Tab = { label: string; render: () => ReactNode };

/** Spec §2: the five tabs, in order. */
export const SETTINGS_TABS: readonly Tab[] = [
  { label: 'Message Settings', render: () => <MessageSettingsPanel /> },
  { label: 'Customer Settings', render: () => <CustomerSettingsPanel /> },
  { label: 'Account Settings', render: () => <AccountSettingsPanel /> },
  { label: 'WhatsApp Accounts', render: () => <WhatsAppAccountsPanel /> },
  { label: 'Other Settings', render: () => <OtherSettingsPanel /> },
];

export function SettingsPage() {
  const [active, setActive] = useState(0);
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = SETTINGS_TABS[active] ?? SETTINGS_TABS[0];

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (active + step + SETTINGS_TABS.length) % SETTINGS_TABS.length;
    setActive(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <>
      <PageHeader title="Settings" description="Manage your messaging, customer and account preferences." />
      <div className="rounded-2xl border border-slate-200 bg-white shadow-xs">
        <div
          role="tablist"
          aria-label="Settings"
          className="flex gap-1 overflow-x-auto border-b border-slate-200 px-2"
          onKeyDown={handleKeyDown}
        >
          {SETTINGS_TABS.map((tab, index) => {
            const selected = index === active;
            return (
              <button
                key={tab.label}
                ref={(element) => {
                  tabRefs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${baseId}-tab-${index}`}
                aria-selected={selected}
                aria-controls={`${baseId}-panel`}
                tabIndex={selected ? 0 : -1}
                onClick={() => setActive(index)}
                className={`-mb-px border-b-2 px-4 py-3 text-sm font-medium whitespace-nowrap transition ${
                  selected
                    ? 'border-emerald-600 text-emerald-700'
                    : 'border-transparent text-slate-500 hover:text-slate-800'
                }`}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        <div
          role="tabpanel"
          id={`${baseId}-panel`}
          aria-labelledby={`${baseId}-tab-${active}`}
          className="p-6"
        >
          {current?.render()}
        </div>
      </div>
    </>
  );
}
