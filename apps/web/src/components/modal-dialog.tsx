import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ReactNode, RefObject } from 'react';
import { CloseIcon } from './icons';

type ModalDialogProps = {
  title: string;
  description?: ReactNode;
  /** Called on Escape, a click on the backdrop or the close button. */
  onClose: () => void;
  /** While busy (a request in flight) the dialog cannot be dismissed. */
  busy?: boolean;
  /** The element to focus on open; the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  size?: 'sm' | 'md';
  children: ReactNode;
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Gives focus back to what opened the dialog. When that is gone (the row whose Delete opened it was deleted) or
 * disabled, focus goes to the page's heading instead of falling to <body>, where a keyboard user would have to
 * start again from the top of the page.
 */
function returnFocus(opener: HTMLElement | null) {
  if (opener?.isConnected && !opener.matches(':disabled')) {
    opener.focus();
    return;
  }
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * A modal dialog (WAI-ARIA dialog pattern): labelled by its title, Escape closes it, Tab stays inside, and
 * focus returns to where it was when it closes; the page behind is inert. Rendered only while open: the
 * parent mounts it.
 */
export function ModalDialog({
  title,
  description,
  onClose,
  busy = false,
  initialFocus,
  size = 'md',
  children,
}: ModalDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [container] = useState(() => document.createElement('div'));
  const body = useRef<HTMLDivElement>(null);
  // The latest props for the listeners registered once below.
  const latest = useRef({ onClose, busy });
  useEffect(() => {
    latest.current = { onClose, busy };
  });

  // The rest of the page is inert and hidden from assistive technology while the dialog is open:
  // aria-modal alone is not honoured everywhere, and a second 'Import Contacts' button behind the
  // dialog would be ambiguous.
  useLayoutEffect(() => {
    document.body.appendChild(container);
    const outside = [...document.body.children].filter(
      (element) => element !== container && !element.hasAttribute('inert'),
    );
    for (const element of outside) {
      element.setAttribute('inert', '');
      element.setAttribute('aria-hidden', 'true');
    }
    return () => {
      for (const element of outside) {
        element.removeAttribute('inert');
        element.removeAttribute('aria-hidden');
      }
      container.remove();
    };
  }, [container]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The content's first control rather than the close button, so typing can start at once.
    const first = initialFocus?.current ?? body.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();

    // On the document, not the panel: focus can drop to <body> (a clicked button becomes disabled while
    // busy) and Escape and Tab must still work then.
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault();
        if (!latest.current.busy) latest.current.onClose();
        return;
      }
      if (event.key !== 'Tab' || !panel.current) return;
      const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const firstControl = focusable[0];
      const lastControl = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (!firstControl || !lastControl) {
        event.preventDefault();
        return;
      }
      if (!panel.current.contains(active)) {
        event.preventDefault();
        (event.shiftKey ? lastControl : firstControl).focus();
      } else if (event.shiftKey && (active === firstControl || active === panel.current)) {
        event.preventDefault();
        lastControl.focus();
      } else if (!event.shiftKey && active === lastControl) {
        event.preventDefault();
        firstControl.focus();
      }
    }
    document.addEventListener('keydown', handleKeyDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      returnFocus(opener);
    };
    // Only on open and close: focusing again on every render would steal focus from the user.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto p-4 sm:items-center">
      <div
        className="fixed inset-0 bg-slate-900/40"
        aria-hidden="true"
        onClick={() => {
          if (!busy) onClose();
        }}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`relative w-full rounded-2xl bg-white p-6 shadow-xl focus:outline-none ${
          size === 'sm' ? 'max-w-md' : 'max-w-lg'
        }`}
      >
        <div className="mb-5 flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-slate-500">
                {description}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            aria-label="Close"
            disabled={busy}
            onClick={onClose}
            className="-m-1 rounded-lg p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-emerald-600 disabled:opacity-50"
          >
            <CloseIcon />
          </button>
        </div>
        <div ref={body}>{children}</div>
      </div>
    </div>,
    container,
  );
}
