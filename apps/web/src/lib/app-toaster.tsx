import { useEffect, useRef } from 'react';
import toaster, { ToastBar, Toaster, resolveValue, useToasterStore } from 'react-hot-toast';
import type { Toast } from 'react-hot-toast';
import { toasterProps } from './toast-options';

function spokenText(toast: Toast): string | null {
  const message = resolveValue(toast.message, toast);
  return typeof message === 'string' || typeof message === 'number' ? String(message) : null;
}

/**
 * Every toast is also said by a screen reader. A live region only reliably speaks changes
 * made while it is already in the page, and each toast is a new element, so two regions stay mounted and empty
 * until a toast appears in them: errors in an assertive `alert`, the rest in a polite `status`. Each toast is its
 * own line (keyed by id), so the same message shown twice is announced twice; a loading toast that turns into
 * success or error is announced again with its new text.
 */
function ToastAnnouncer() {
  const { toasts } = useToasterStore();
  const lines = toasts
    .filter((toast) => toast.visible)
    .map((toast) => ({ id: toast.id, type: toast.type, text: spokenText(toast) }))
    .filter((line) => line.text !== null);
  const region = (errors: boolean) =>
    lines
      .filter((line) => (line.type === 'error') === errors)
      .map((line) => <p key={line.id}>{line.text}</p>);
  return (
    <div className="sr-only" data-testid="toast-announcer">
      <div role="status" aria-live="polite">
        {region(false)}
      </div>
      <div role="alert" aria-live="assertive">
        {region(true)}
      </div>
    </div>
  );
}

/** What AppToaster needs of the app's router: the current path and news of each change. */
export interface ToasterNavigation {
  readonly state: { location: { pathname: string } };
  subscribe(listener: (state: { location: { pathname: string } }) => void): () => void;
}

/**
 * An error toast is about the screen it was raised on. When the user moves to another screen (a
 * failed sign-in, then a successful one that opens the Dashboard), the errors still showing are dismissed, so
 * a stale 'Login failed' does not sit over the page that worked. Success and information toasts stay their
 * full time: they often announce the very navigation ('Template saved successfully!').
 */
function useDismissErrorsOnNavigation(navigation: ToasterNavigation | undefined, toasts: Toast[]) {
  const shown = useRef(toasts);
  shown.current = toasts;
  useEffect(() => {
    if (!navigation) return;
    let path = navigation.state.location.pathname;
    return navigation.subscribe((state) => {
      if (state.location.pathname === path) return;
      path = state.location.pathname;
      for (const toast of shown.current) {
        if (toast.type === 'error' && toast.visible) toaster.dismiss(toast.id);
      }
    });
  }, [navigation]);
}

/**
 * The app's one toast container (durations, limit and placement) and its screen-reader announcer;
 * given the router, it dismisses a screen's error toasts when the user leaves that screen.
 */
export function AppToaster({ navigation }: { navigation?: ToasterNavigation }) {
  const { toasts } = useToasterStore();
  useDismissErrorsOnNavigation(navigation, toasts);
  return (
    <>
      <Toaster {...toasterProps}>
        {/* The announcer speaks each toast; its own element (a new polite region) would be read again. A toast's
            own ariaProps win over the Toaster's options, hence the override here. */}
        {(toast) => (
          <ToastBar
            toast={{ ...toast, ariaProps: { role: 'status', 'aria-live': 'off' } }}
            position={toast.position ?? toasterProps.position}
          />
        )}
      </Toaster>
      <ToastAnnouncer />
    </>
  );
}
