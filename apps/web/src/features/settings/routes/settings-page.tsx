import { DEFAULT_ACCOUNT_SETTINGS, type AccountSettingsResponse } from '@herald/contracts';
import { useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { secondaryButtonClass } from '../../../components/button-classes';
import { FormAlert } from '../../../components/form-alert';
import { PageHeader } from '../../../components/page-header';
import { useHorizontalOverflow } from '../../../lib/use-horizontal-overflow';
import { useSelectedAccountSettings } from '../../../lib/account-settings-api';
import { errorText } from '../../../lib/error-text';
import { WhatsAppAccountsPanel } from '../../accounts/index';
import { CustomerSettingsPanel } from '../components/customer-settings-panel';
import { MessageSettingsPanel } from '../components/message-settings-panel';
import { OtherSettingsPanel } from '../components/other-settings-panel';
import { AccountSettingsPanel } from '../components/account-settings-panel';

/** What a saved-per-account tab needs: the selected account and its stored settings. */
type AccountContext = { wabaId: string | null; stored: AccountSettingsResponse | null };

type Tab = {
  label: string;
  /** True for the tabs whose values are the account's stored settings (they wait for the read). */
  stored?: boolean;
  render: (context: AccountContext) => ReactNode;
};

/** The five tabs, in order. */
export const SETTINGS_TABS: readonly Tab[] = [
  {
    label: 'Message Settings',
    stored: true,
    render: ({ wabaId, stored }) => (
      <MessageSettingsPanel wabaId={wabaId} stored={stored?.settings ?? DEFAULT_ACCOUNT_SETTINGS} />
    ),
  },
  {
    label: 'Customer Settings',
    stored: true,
    render: ({ wabaId, stored }) => (
      <CustomerSettingsPanel
        wabaId={wabaId}
        stored={stored?.settings ?? DEFAULT_ACCOUNT_SETTINGS}
        mailServerConfigured={stored?.mail_server_configured ?? false}
      />
    ),
  },
  { label: 'Account Settings', render: () => <AccountSettingsPanel /> },
  { label: 'WhatsApp Accounts', render: () => <WhatsAppAccountsPanel /> },
  {
    label: 'Other Settings',
    stored: true,
    render: ({ wabaId, stored }) => (
      <OtherSettingsPanel wabaId={wabaId} stored={stored?.settings ?? DEFAULT_ACCOUNT_SETTINGS} />
    ),
  },
];

/** The stored tabs wait for the account's settings, so their controls never show a value that is not saved. */
function StoredTab({ tab }: { tab: Tab }) {
  const { wabaId, data, isLoading, isError, error, refetch } = useSelectedAccountSettings();
  if (wabaId === null) return tab.render({ wabaId, stored: null });
  if (isLoading) return <p className="py-8 text-center text-sm text-slate-500">Loading settings...</p>;
  if (isError || !data) {
    return (
      <div className="space-y-3">
        <FormAlert>
          The settings could not be loaded:{' '}
          {isError ? errorText(error) : 'the server answered something else'}
        </FormAlert>
        <button type="button" className={secondaryButtonClass} onClick={() => void refetch()}>
          Try again
        </button>
      </div>
    );
  }
  // Keyed by account: another account's values never linger in the controls.
  return <div key={data.waba_id}>{tab.render({ wabaId, stored: data })}</div>;
}

export function SettingsPage() {
  const [active, setActive] = useState(0);
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = SETTINGS_TABS[active] ?? SETTINGS_TABS[0];
  // On a phone the five tabs do not fit; shades at the cut edges show that the strip scrolls.
  const strip = useHorizontalOverflow<HTMLDivElement>();

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
        <div className="relative">
          <div
            ref={strip.ref}
            role="tablist"
            aria-label="Settings"
            data-scrolls={strip.overflows ? 'true' : undefined}
            className="flex gap-1 overflow-x-auto border-b border-slate-200 px-2 [scrollbar-width:thin]"
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
          {strip.overflows && !strip.atStart ? (
            <div
              aria-hidden="true"
              data-testid="tabs-shade-start"
              className="pointer-events-none absolute inset-y-0 left-0 w-8 rounded-tl-2xl bg-gradient-to-r from-white to-transparent"
            />
          ) : null}
          {strip.overflows && !strip.atEnd ? (
            <div
              aria-hidden="true"
              data-testid="tabs-shade-end"
              className="pointer-events-none absolute inset-y-0 right-0 flex w-10 items-center justify-end rounded-tr-2xl bg-gradient-to-l from-white via-white/80 to-transparent pr-1 text-slate-500"
            >
              ›
            </div>
          ) : null}
        </div>
        <div
          role="tabpanel"
          id={`${baseId}-panel`}
          aria-labelledby={`${baseId}-tab-${active}`}
          className="p-6"
        >
          {current?.stored ? <StoredTab tab={current} /> : current?.render({ wabaId: null, stored: null })}
        </div>
      </div>
    </>
  );
}
