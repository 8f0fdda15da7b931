import { useEffect } from 'react';
import { useMatches } from 'react-router';

/** What each route declares in its `handle`: the title shown in the header and the browser tab. */
export type RouteHandle = { title: string };

export const APP_NAME = 'Herald';

export function documentTitleFor(title: string | undefined): string {
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}

/** The title of the deepest matched route that declares one. */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as Partial<RouteHandle> | undefined;
    if (handle?.title) return handle.title;
  }
  return undefined;
}

export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = documentTitleFor(title);
  }, [title]);
}
