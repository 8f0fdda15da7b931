import { useState } from 'react';
import toast from 'react-hot-toast';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { useAppSelector } from '../../../lib/store-hooks';
import { EmbeddedSignupError } from '../../../lib/embedded-signup';
import { serverMessage } from '../../../lib/server-message';
import { useEmbeddedSignup } from '../../../lib/use-embedded-signup';
import { useConnectAccountMutation, useGetWabasQuery } from '../api';
import {
  CONNECT_FAILURE_MESSAGES,
  CONNECT_SUCCESS_MESSAGE,
  MISSING_CREDENTIALS_MESSAGE,
  connectFailedMessage,
} from '../connect-messages';
import { metaBusinessUrl } from '../meta-business-url';
import type { WabaAccount } from '../../../lib/waba-slice';

/**
 * Settings › WhatsApp Accounts: the stored account list, refreshed from the server on open
 * and after a connect, and "Connect New Account" through Embedded Signup (PUT /api/auth/facebook/callback/).
 */
export function WhatsAppAccountsPanel() {
  const accounts = useAppSelector((state) => state.waba.wabaAccounts);
  // Fetching stores the fresh list (see accounts api); the panel renders the stored one.
  const { isLoading } = useGetWabasQuery();
  const [connectAccount] = useConnectAccountMutation();
  const startEmbeddedSignup = useEmbeddedSignup();
  const [connecting, setConnecting] = useState(false);

  async function handleConnect() {
    setConnecting(true);
    try {
      const { code, accountData } = await startEmbeddedSignup();
      if (!code) {
        toast.error(MISSING_CREDENTIALS_MESSAGE);
        return;
      }
      await connectAccount({ payload: { code, account_data: accountData } }).unwrap();
      toast.success(CONNECT_SUCCESS_MESSAGE);
    } catch (failure) {
      console.error(failure);
      if (failure instanceof EmbeddedSignupError) toast.error(CONNECT_FAILURE_MESSAGES[failure.failure]);
      else toast.error(connectFailedMessage(serverMessage(failure, ['message', 'detail'])));
    } finally {
      setConnecting(false);
    }
  }

  return (
    <section aria-labelledby="whatsapp-accounts-title">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="whatsapp-accounts-title" className="text-lg font-semibold text-slate-900">
          WhatsApp Business Accounts
        </h2>
        <button
          type="button"
          className={primaryButtonClass}
          disabled={connecting}
          onClick={() => void handleConnect()}
        >
          {connecting ? 'Connecting...' : 'Connect New Account'}
        </button>
      </div>
      {isLoading && accounts.length === 0 ? (
        <p className="py-8 text-center text-sm text-slate-500">Loading accounts...</p>
      ) : accounts.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center">
          <p className="font-medium text-slate-700">No WhatsApp accounts connected yet.</p>
          <p className="mt-1 text-sm text-slate-500">
            Connect your WhatsApp Business account to get started.
          </p>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {accounts.map((account) => (
            <AccountCard key={account.waba_id} account={account} />
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountCard({ account }: { account: WabaAccount }) {
  const displayName = account.details[0]?.display_name;
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 bg-white p-4 shadow-xs">
      <p className="text-sm font-semibold break-all text-slate-900">Account ID: {account.waba_id}</p>
      <dl className="mt-3 space-y-2 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Status</dt>
          <dd>
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">
              Active
            </span>
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Display Name</dt>
          <dd className="text-right font-medium text-slate-800">{displayName || '—'}</dd>
        </div>
      </dl>
      <button
        type="button"
        className={`${secondaryButtonClass} mt-4`}
        onClick={() => window.open(metaBusinessUrl(account.waba_id), '_blank', 'noopener,noreferrer')}
      >
        View in Meta
      </button>
    </li>
  );
}
