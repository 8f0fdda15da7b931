import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from './page-loading';
import { useDocumentTitle } from './document-title';
import { usePageTitle } from './page-title';

/**
 * The top route: keeps the browser tab title in step with the current screen, and shows the loading state
 * while a lazy public page (sign-up, legal pages, …) downloads. Protected pages have their own boundary
 * inside the app layout, so its frame stays on screen while they load.
 */
export function RootRoute() {
  useDocumentTitle(usePageTitle());
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
