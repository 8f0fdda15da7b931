import { createElement, use } from 'react';
import type { ComponentType } from 'react';

/** A screen whose code downloads on its first visit; `preload` starts that download early. */
export type LazyPage = ComponentType & { preload: () => Promise<void> };
const pages: LazyPage[] = [];

/**
 * A page whose code is fetched on its first visit: each `import()` below becomes a chunk of its own,
 * so the sign-in screen does not download the dashboard, the template editor or libphonenumber-js's metadata.
 * Unlike `React.lazy`, a page whose module is already here renders in the same pass (no suspension, no
 * fallback flash on a second visit or in tests); the first visit suspends on the download, and the nearest
 * <Suspense> (root route or app layout) shows the loading state meanwhile. A failed download reaches the route's
 * error element and is tried again on the next visit.
 */
type Download = Promise<void> & { status?: 'fulfilled' | 'rejected'; value?: void; reason?: unknown };

function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyPage {
  let loaded: ComponentType | undefined;
  // The download, marked settled the way React reads a thenable, so `use()` answers at once once it is here.
  let pending: Download | undefined;
  const preload = () => {
    if (!pending) {
      const download: Download = load().then(
        (module) => {
          loaded = module[name] as ComponentType;
          download.status = 'fulfilled';
          download.value = undefined;
        },
        (error: unknown) => {
          pending = undefined;
          download.status = 'rejected';
          download.reason = error;
          throw error;
        },
      );
      pending = download;
    }
    return pending;
  };
  function Page() {
    // Called on every render (React requires it once a render suspended on it): a settled download returns at once.
    use(preload() as Promise<void>);
    return loaded ? createElement(loaded) : null;
  }
  Page.displayName = `Lazy(${String(name)})`;
  const page = Object.assign(Page, { preload });
  pages.push(page);
  return page;
}

export const SignUpPage = lazyPage(() => import('../features/auth/routes/sign-up-page'), 'SignUpPage');
export const PinPage = lazyPage(() => import('../features/auth/routes/pin-page'), 'PinPage');
export const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/routes/forgot-password-page'),
  'ForgotPasswordPage',
);
export const TermsPage = lazyPage(() => import('../features/legal/routes/terms-page'), 'TermsPage');
export const PrivacyPage = lazyPage(() => import('../features/legal/routes/privacy-page'), 'PrivacyPage');
export const DashboardPage = lazyPage(
  () => import('../features/dashboard/routes/dashboard-page'),
  'DashboardPage',
);
export const CustomersPage = lazyPage(
  () => import('../features/contacts/routes/customers-page'),
  'CustomersPage',
);
export const SegmentsPage = lazyPage(
  () => import('../features/segments/routes/segments-page'),
  'SegmentsPage',
);
export const TemplatesPage = lazyPage(
  () => import('../features/templates/routes/templates-page'),
  'TemplatesPage',
);
export const CreateTemplatePage = lazyPage(
  () => import('../features/templates/routes/create-template-page'),
  'CreateTemplatePage',
);
export const EditTemplatePage = lazyPage(
  () => import('../features/templates/routes/edit-template-page'),
  'EditTemplatePage',
);
export const BroadcastHistoryPage = lazyPage(
  () => import('../features/broadcasts/routes/broadcast-history-page'),
  'BroadcastHistoryPage',
);
export const NewBroadcastPage = lazyPage(
  () => import('../features/broadcasts/routes/new-broadcast-page'),
  'NewBroadcastPage',
);
export const BroadcastReportPage = lazyPage(
  () => import('../features/broadcasts/routes/broadcast-report-page'),
  'BroadcastReportPage',
);
export const NumbersPage = lazyPage(() => import('../features/numbers/routes/numbers-page'), 'NumbersPage');
export const SettingsPage = lazyPage(
  () => import('../features/settings/routes/settings-page'),
  'SettingsPage',
);

/** Downloads every page's code now (a module is fetched and run once; its page then renders at once). */
export function preloadAllPages(): Promise<unknown> {
  return Promise.all(pages.map((page) => page.preload()));
}

// Under Vitest every page is loaded when the route table is imported, so tests render the table exactly as
// they did before code splitting: synchronously, with no on-demand compilation racing a `findBy…`. The build
// drops this branch (MODE is the constant 'production' there).
if (import.meta.env.MODE === 'test') await preloadAllPages();
