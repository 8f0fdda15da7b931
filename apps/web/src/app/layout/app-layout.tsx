import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { accountHealthNotices } from '@herald/contracts';
import { AccountHealthBanner } from '../../components/account-health-banner';
import { useAppSelector } from '../../lib/store-hooks';
import { PageLoading } from '../page-loading';
import { usePageTitle } from '../page-title';
import { useAccountTheme } from './account-appearance';
import { AppHeader } from './app-header';
import { Breadcrumb } from './breadcrumb';
import { useHeaderFigures } from './header-figures';
import { NAV_DRAWER_ID } from './nav-items';
import { SideNav } from './side-nav';

/**
 * What WhatsApp did to the selected account, from the header's read (no request of its own; decision 077).
 * Nothing while the account is in good standing.
 */
function AccountHealth() {
  const { data } = useHeaderFigures();
  const name = useAppSelector((state) => state.waba.selectedWabaAccount?.details[0]?.display_name);
  const health = data?.account_health;
  return <AccountHealthBanner accountName={name} notices={health ? accountHealthNotices(health) : []} />;
}

/** The layout every protected screen shares. */
export function AppLayout() {
  const title = usePageTitle();
  const [navOpen, setNavOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const drawerRef = useRef<HTMLElement>(null);
  useAccountTheme();

  // On a phone the navigation is a drawer over the page. Escape closes it like any menu and gives
  // focus back to the button that opened it, so a keyboard user is not left on a link that just disappeared.
  useEffect(() => {
    if (!navOpen) return;
    drawerRef.current?.querySelector<HTMLElement>('a[href]')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setNavOpen(false);
      menuButtonRef.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navOpen]);

  return (
    <div className="flex min-h-full bg-slate-50 text-slate-900">
      {navOpen ? (
        <div
          className="fixed inset-0 z-30 bg-slate-900/40 md:hidden"
          aria-hidden="true"
          onClick={() => setNavOpen(false)}
        />
      ) : null}
      {/* Closed on a phone, the drawer is off screen and `invisible`, so Tab does not walk through links
          nobody can see; from md up it is the always-visible side column. */}
      <aside
        id={NAV_DRAWER_ID}
        ref={drawerRef}
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r border-slate-200 bg-white transition-[translate,visibility] md:visible md:sticky md:top-0 md:h-screen md:translate-x-0 ${
          navOpen ? 'visible translate-x-0' : 'invisible -translate-x-full'
        }`}
      >
        <Link
          to="/dashboard"
          onClick={() => setNavOpen(false)}
          className="flex h-16 items-center gap-2 border-b border-slate-200 px-6"
        >
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-emerald-700 text-sm font-bold text-white">
            H
          </span>
          <span className="text-lg font-semibold tracking-tight">Herald</span>
        </Link>
        <SideNav onNavigate={() => setNavOpen(false)} />
        <div className="border-t border-slate-200 p-4 text-xs text-slate-500">
          WhatsApp Business broadcasts
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <AppHeader
          title={title}
          navOpen={navOpen}
          menuButtonRef={menuButtonRef}
          onOpenNav={() => setNavOpen(true)}
        />
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {/* A ban or restriction stops sending on every screen of the account, so it is said on every one. */}
          <AccountHealth />
          <Breadcrumb />
          {/* A page's code loads on its first visit: the header and navigation stay while it does. */}
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
