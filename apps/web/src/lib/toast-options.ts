import type { DefaultToastOptions, ToasterProps } from 'react-hot-toast';

/** How long each toast type stays before it is dismissed. */
export const TOAST_DURATIONS = {
  blank: 4000,
  error: 4000,
  success: 2000,
  loading: Infinity,
  custom: 4000,
} as const;

/** A dismissed toast is removed from the DOM after this delay. */
export const TOAST_REMOVE_DELAY_MS = 1000;

/** The outer margin of the fixed toast container. */
export const TOAST_CONTAINER_MARGIN_PX = 16;

/**
 * At most 20 toasts at once. react-hot-toast 2.6 enforces this itself: its store starts
 * with `settings: { toastLimit: 20 }` (TOAST_LIMIT in its source, `var re=20` in dist/index.mjs) and
 * keeps only the newest 20 on every add. The Toaster takes no prop for it, so this constant documents
 * the limit and the toast test checks the library still applies it.
 */
export const TOAST_LIMIT = 20;

export const toastOptions: DefaultToastOptions = {
  duration: TOAST_DURATIONS.blank,
  removeDelay: TOAST_REMOVE_DELAY_MS,
  // The palette's card colours, so a toast turns dark with the dark theme (decision 039); react-hot-toast's own
  // are fixed (white, #363636).
  style: { maxWidth: '350px', background: 'var(--color-white)', color: 'var(--color-slate-900)' },
  blank: { duration: TOAST_DURATIONS.blank },
  error: { duration: TOAST_DURATIONS.error },
  success: { duration: TOAST_DURATIONS.success },
  loading: { duration: TOAST_DURATIONS.loading },
  custom: { duration: TOAST_DURATIONS.custom },
};

/** Props of the app's single <Toaster>. */
export const toasterProps = {
  position: 'top-center',
  gutter: 8,
  containerStyle: {
    position: 'fixed',
    top: TOAST_CONTAINER_MARGIN_PX,
    right: TOAST_CONTAINER_MARGIN_PX,
    bottom: TOAST_CONTAINER_MARGIN_PX,
    left: TOAST_CONTAINER_MARGIN_PX,
  },
  toastOptions,
} satisfies ToasterProps;
