import { useContext } from 'react';
import type { RefObject } from 'react';
import { useNavigate } from 'react-router';
import { logout } from '../../lib/auth-slice';
import { useLogoutMutation } from '../../features/auth/api';
import { api } from '../../lib/api';
import { clearWabaAccounts } from '../../lib/waba-slice';
import { LogoutIcon, MenuIcon } from '../../components/icons';
import { useAppDispatch } from '../../lib/store-hooks';
import { PersistorContext } from '../../lib/persistor-context';
import { BetaBadge } from './account-appearance';
import { AccountSelector } from './account-selector';
import { useHeaderRefreshOnNavigation } from './header-figures';
import { NAV_DRAWER_ID } from './nav-items';
import { NotificationBell } from './notification-bell';

type AppHeaderProps = {
  title: string | undefined;
  /** Whether the phone-width navigation drawer is open (the menu button says so to screen readers). */
  navOpen: boolean;
  /** The layout gives focus back to this button when the drawer closes with Escape. */
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  onOpenNav: () => void;
};

export function AppHeader({ title, navOpen, menuButtonRef, onOpenNav }: AppHeaderProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logoutOnServer, { isLoading }] = useLogoutMutation();
  const persistor = useContext(PersistorContext);
  useHeaderRefreshOnNavigation();

  // The session ends only when the server answers 200; a failure is only logged.
  async function handleLogout() {
    const result = await logoutOnServer();
    if ('error' in result) {
      console.error('Logout failed', result.error);
      return;
    }
    dispatch(logout());
    dispatch(clearWabaAccounts());
    dispatch(api.util.resetApiState());
    // Save the signed-out state now, so a reload cannot bring the old session back.
    await persistor?.flush();
    void navigate('/', { replace: true });
  }

  return (
    <header className="sticky top-0 z-20 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
      <button
        ref={menuButtonRef}
        type="button"
        aria-label="Open navigation"
        aria-expanded={navOpen}
        aria-controls={NAV_DRAWER_ID}
        onClick={onOpenNav}
        className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 md:hidden"
      >
        <MenuIcon />
      </button>
      <p
        className="hidden min-w-0 truncate text-lg font-semibold text-slate-900 sm:block"
        data-testid="header-title"
      >
        {title}
      </p>
      <div className="ml-auto flex min-w-0 items-center gap-2 sm:gap-3">
        <BetaBadge />
        <AccountSelector />
        <NotificationBell />
        <button
          type="button"
          onClick={() => void handleLogout()}
          disabled={isLoading}
          className="inline-flex shrink-0 items-center gap-2 rounded-lg border border-slate-200 px-2 py-1.5 sm:px-3 text-sm font-medium text-slate-700 transition hover:border-red-200 hover:bg-red-50 hover:text-red-700 disabled:opacity-60"
        >
          <LogoutIcon width="16" height="16" />
          {/* On a phone the icon alone fits; the word stays the button's name for screen readers. */}
          <span className="sr-only sm:not-sr-only">Logout</span>
        </button>
      </div>
    </header>
  );
}
