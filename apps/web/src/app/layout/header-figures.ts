import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useGetDashboardHeaderQuery } from '../../features/dashboard/api';
import { useAppSelector } from '../../lib/store-hooks';

/** The header's figures are read again this often while a page stays open (a broadcast completes meanwhile). */
export const HEADER_REFRESH_MS = 60_000;

/**
 * The Customers badge and the bell (GET /dashboard/header) of the selected account; nothing without one (the
 * route needs X-WABA-ID). Every caller shares one cache entry, so the nav and the bell cost one request.
 */
export function useHeaderFigures() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  const query = useGetDashboardHeaderQuery(wabaId ?? '', {
    skip: wabaId === null,
    pollingInterval: HEADER_REFRESH_MS,
  });
  return { wabaId, ...query };
}

/** Reads the header's figures again on each navigation (the first render has just read them). */
export function useHeaderRefreshOnNavigation() {
  const { pathname } = useLocation();
  const { wabaId, refetch } = useHeaderFigures();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (wabaId !== null) void refetch();
    // Only a new path asks again; refetch's identity changes with the query's state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
}
