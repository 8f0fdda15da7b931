import { useContext } from 'react';
import type { ChangeEvent } from 'react';
import { selectWabaAccount, wabaAccountLabel } from '../../lib/waba-slice';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks';
import { PersistorContext } from '../../lib/persistor-context';

/**
 * Shown only with at least one business account; choosing one stores it as the selected
 * account and reloads the page, so every screen refetches for the new account.
 */
export function AccountSelector() {
  const accounts = useAppSelector((state) => state.waba.wabaAccounts);
  const selected = useAppSelector((state) => state.waba.selectedWabaAccount);
  const dispatch = useAppDispatch();
  const persistor = useContext(PersistorContext);

  if (accounts.length < 1) return null;

  function handleChange(event: ChangeEvent<HTMLSelectElement>) {
    const account = accounts.find((candidate) => candidate.waba_id === event.target.value);
    if (!account) return;
    dispatch(selectWabaAccount(account));
    const reload = () => window.location.reload();
    // redux-persist writes on a timer; flush first so the reloaded page sees the new selection.
    if (persistor) void persistor.flush().then(reload, reload);
    else reload();
  }

  return (
    <label className="flex min-w-0 items-center gap-2 text-sm text-slate-500">
      <span className="hidden lg:inline">Account</span>
      <select
        aria-label="Business account"
        // A long name is cut to the header's room (most on a phone): the whole of it on hover.
        title={selected ? wabaAccountLabel(selected) : undefined}
        value={selected?.waba_id ?? ''}
        onChange={handleChange}
        className="w-full max-w-52 min-w-0 rounded-lg border border-slate-300 bg-white py-1.5 pr-8 pl-3 text-sm font-medium text-slate-800 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none sm:w-auto sm:max-w-64 xl:max-w-80"
      >
        {selected === null ? (
          <option value="" disabled>
            Select an account
          </option>
        ) : null}
        {accounts.map((account) => (
          <option key={account.waba_id} value={account.waba_id}>
            {wabaAccountLabel(account)}
          </option>
        ))}
      </select>
    </label>
  );
}
