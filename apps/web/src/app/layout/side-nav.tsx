import { NavLink } from 'react-router';
import { useHeaderFigures } from './header-figures';
import { NAV_ITEMS } from './nav-items';

type SideNavProps = { onNavigate?: () => void };

export function SideNav({ onNavigate }: SideNavProps) {
  // A badge shows a real figure or nothing (no account selected, or not read yet).
  const { currentData } = useHeaderFigures();
  const figures = { contacts: currentData?.contacts };
  return (
    <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-1">
        {NAV_ITEMS.map(({ label, to, icon: ItemIcon, badge: badgeOf }) => {
          const badge = badgeOf ? figures[badgeOf] : undefined;
          return (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  `group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition ${
                    isActive
                      ? 'bg-emerald-50 text-emerald-700 ring-1 ring-emerald-100'
                      : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
                  }`
                }
              >
                {({ isActive }) => (
                  <>
                    <ItemIcon
                      className={isActive ? 'text-emerald-700' : 'text-slate-500 group-hover:text-slate-600'}
                    />
                    <span className="flex-1">{label}</span>
                    {badge !== undefined ? (
                      <span
                        className={`min-w-6 rounded-full px-2 py-0.5 text-center text-xs font-semibold ${
                          isActive ? 'bg-emerald-700 text-white' : 'bg-slate-100 text-slate-600'
                        }`}
                      >
                        {badge.toLocaleString('en-US')}
                        <span className="sr-only"> {badgeOf}</span>
                      </span>
                    ) : null}
                  </>
                )}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
