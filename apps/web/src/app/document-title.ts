import { useEffect } from 'react';

export const APP_NAME = 'Herald';

export function documentTitleFor(title: string | undefined): string {
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}

/** Keeps the browser tab's title in step with the screen (no router needed: the first sign-in screen uses it). */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = documentTitleFor(title);
  }, [title]);
}
