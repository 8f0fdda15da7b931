import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { HeaderEvent } from '@herald/contracts';
import { BellIcon } from '../../components/icons';
import { formatDateTime } from '../../lib/date-time';
import { useMarkHeaderSeenMutation } from '../../features/dashboard/api';
import { useHeaderFigures } from './header-figures';

/**
 * The bell lists the account's latest events (templates reviewed or paused, broadcasts completed or
 * waiting, imports finished); its badge is the unread count, none at 0. Opening it marks what it shows as seen.
 * Escape or a click elsewhere closes it and gives focus back to the bell.
 */
export function NotificationBell() {
  const { wabaId, currentData } = useHeaderFigures();
  const [markSeen] = useMarkHeaderSeenMutation();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const unread = currentData?.unread ?? 0;
  const events = currentData?.events ?? [];

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLElement>('[data-bell-panel] a[href], [data-bell-panel]')?.focus();
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent | MouseEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('mousedown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('mousedown', onPointerDown);
    };
  }, [open]);

  // No account: nothing real to show, so no bell.
  if (wabaId === null) return null;

  function toggle() {
    const next = !open;
    setOpen(next);
    // Seen up to the newest event shown: one that arrives while the list is open stays unread.
    if (next && unread > 0 && events[0]) void markSeen({ up_to: events[0].at });
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
        className="relative rounded-lg p-2 text-slate-500 transition hover:bg-slate-100 hover:text-slate-700"
      >
        <BellIcon />
        {unread > 0 ? (
          <span
            data-testid="bell-badge"
            className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-semibold text-white ring-2 ring-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          id={panelId}
          data-bell-panel
          tabIndex={-1}
          role="region"
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-30 max-h-[70vh] overflow-y-auto rounded-xl border border-slate-200 bg-white shadow-lg sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-80"
        >
          {events.length === 0 ? (
            <p className="px-4 py-6 text-sm text-slate-500">
              No notifications yet: template reviews, finished broadcasts and imports appear here.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {events.map((event) => (
                <EventItem key={event.id} event={event} onFollow={() => setOpen(false)} />
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}

function EventItem({ event, onFollow }: { event: HeaderEvent; onFollow: () => void }) {
  return (
    <li>
      <Link
        to={event.link}
        onClick={onFollow}
        className="block px-4 py-3 text-sm hover:bg-slate-50 focus:bg-slate-50 focus:outline-none"
      >
        <span className="flex items-center gap-2 font-medium text-slate-900">
          {event.unread ? (
            <span className="h-2 w-2 shrink-0 rounded-full bg-emerald-500" aria-label="Unread" />
          ) : null}
          {event.title}
        </span>
        <span className="block text-slate-600">{event.detail}</span>
        <time dateTime={event.at} className="block text-xs text-slate-500">
          {formatDateTime(event.at)}
        </time>
      </Link>
    </li>
  );
}
