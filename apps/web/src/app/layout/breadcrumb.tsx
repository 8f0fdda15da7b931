import { Link, useLocation } from 'react-router';
import { ChevronRightIcon } from '../../components/icons';

/** Spec §2: the current path, e.g. Home / customers. */
export function Breadcrumb() {
  const { pathname } = useLocation();
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);

  return (
    <nav aria-label="Breadcrumb" className="mb-4">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        <li>
          <Link to="/dashboard" className="hover:text-emerald-700">
            Home
          </Link>
        </li>
        {segments.map((segment, index) => (
          <li key={`${index}-${segment}`} className="flex items-center gap-1">
            <ChevronRightIcon width="14" height="14" className="text-slate-400" />
            <span
              aria-current={index === segments.length - 1 ? 'page' : undefined}
              className={index === segments.length - 1 ? 'font-medium text-slate-800' : undefined}
            >
              {segment}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
}
