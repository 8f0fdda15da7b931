import { BellIcon } from '../../components/icons';
import { NOTIFICATION_COUNT } from './nav-items';

export function NotificationBell() {
  return (
    <button
      type="button"
      aria-label="Notifications"
      className="relative rounded-lg p-2 text-slate-500 transition hover:bg-slate-100 hover:text-slate-700"
    >
      <BellIcon />
      <span className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-500 px-1 text-[11px] font-semibold text-white ring-2 ring-white">
        {NOTIFICATION_COUNT}
      </span>
    </button>
  );
}
