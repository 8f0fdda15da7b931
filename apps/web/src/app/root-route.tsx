import { Outlet } from 'react-router';
import { useDocumentTitle, usePageTitle } from './page-title';

/** The top route: keeps the browser tab title in step with the current screen. */
export function RootRoute() {
  useDocumentTitle(usePageTitle());
  return <Outlet />;
}
