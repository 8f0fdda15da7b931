import { useState } from 'react';
import { Link, Outlet } from 'react-router';
import { usePageTitle } from '../page-title';
import { AppHeader } from './app-header';
import { Breadcrumb } from './breadcrumb';
import { SideNav } from './side-nav';

/** Spec §2: the layout every protected screen shares. */
export function AppLayout() {
  const title = usePageTitle();
  const [navOpen, setNavOpen] = useState(false);

  return (
    <div className="flex min-h-full bg-slate-50 text-slate-900">
      {navOpen ? (
        <div
          className="fixed inset-0 z-30 bg-slate-900/40 md:hidden"
          aria-hidden="true"
          onClick={() => setNavOpen(false)}
        />
      ) : null}
      <aside
        className={`fixed inset-y-0 left-0 z-40 flex w-64 flex-col border-r border-slate-200 bg-white transition-transform md:sticky md:top-0 md:h-screen md:translate-x-0 ${
          navOpen ? 'translate-x-0' : '-translate-x-full'
        }`}
      >
        <Link to="/dashboard" className="flex h-16 items-center gap-2 border-b border-slate-200 px-6">
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-emerald-600 text-sm font-bold text-white">
            H
          </span>
          <span className="text-lg font-semibold tracking-tight">Herald</span>
        </Link>
        <SideNav onNavigate={() => setNavOpen(false)} />
        <div className="border-t border-slate-200 p-4 text-xs text-slate-400">
          WhatsApp Business broadcasts
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <AppHeader title={title} onOpenNav={() => setNavOpen(true)} />
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          <Breadcrumb />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
