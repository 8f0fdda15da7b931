import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };
const pages: LazyPage[] = [];

/**
 * A page whose code is fetched on its first visit (issue 19): each `import()` below becomes a chunk of its own,
 * so the sign-in screen does not download the dashboard, the template editor or libphonenumber-js's metadata.
 * The pages export named components; `lazy` wants a default export.
 */
function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyPage {
  const page = Object.assign(
    lazy(() => load().then((module) => ({ default: module[name] as ComponentType }))),
    { preload: load },
  );
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

/** Downloads every page's code now (a module is fetched and run once; `lazy` then finds it ready). */
export function preloadAllPages(): Promise<unknown> {
  return Promise.all(pages.map((page) => page.preload()));
}

// Under Vitest the first import of a page compiles its whole module graph on demand, which can outlast a
// test's `findBy…` wait. Tests that render the route table then wait for the modules here, once per file,
// instead of racing them; the build drops this branch (MODE is a constant 'production' there).
if (import.meta.env.MODE === 'test') await preloadAllPages();
