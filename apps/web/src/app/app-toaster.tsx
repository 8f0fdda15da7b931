import { ToastBar, Toaster, resolveValue, useToasterStore } from 'react-hot-toast';
import type { Toast } from 'react-hot-toast';
import { toasterProps } from '../lib/toast-options';

function spokenText(toast: Toast): string | null {
  const message = resolveValue(toast.message, toast);
  return typeof message === 'string' || typeof message === 'number' ? String(message) : null;
}

/**
 * Issue 19 / spec §9: every toast is also said by a screen reader. A live region only reliably speaks changes
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

/** The app's one toast container (spec §9 durations, limit and placement) and its screen-reader announcer. */
export function AppToaster() {
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
