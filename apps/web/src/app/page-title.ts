import { useMatches } from 'react-router';

/** What each route declares in its `handle`: the title shown in the header and the browser tab. */
export type RouteHandle = { title: string };

/** The title of the deepest matched route that declares one. */
export function usePageTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as Partial<RouteHandle> | undefined;
    if (handle?.title) return handle.title;
  }
  return undefined;
}
