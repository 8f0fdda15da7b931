import { skipToken } from '@reduxjs/toolkit/query';
import { Link, useLocation } from 'react-router';
import { ChevronRightIcon } from '../../components/icons';
import { templatesApi } from '../../features/templates/api';
import { breadcrumbTrail } from './breadcrumb-trail';

/** The template being edited, read from the edit screen's own request (no request of its own). */
function useEditedTemplateName(pathname: string): string | undefined {
  const match = /^\/templates\/([^/]+)\/?$/.exec(pathname);
  const id = match ? decodeURIComponent(match[1]!) : '';
  const { currentData } = templatesApi.endpoints.getTemplate.useQueryState(id || skipToken);
  return id ? currentData?.name : undefined;
}

/** Where the user is, e.g. Home › Templates › Create Template, each earlier screen a link. */
export function Breadcrumb() {
  const { pathname } = useLocation();
  const trail = breadcrumbTrail(pathname, { template: useEditedTemplateName(pathname) });

  return (
    <nav aria-label="Breadcrumb" className="mb-4">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        <li>
          <Link to="/dashboard" className="hover:text-emerald-800">
            Home
          </Link>
        </li>
        {trail.map((crumb, index) => {
          const current = index === trail.length - 1;
          return (
            <li key={`${index}-${crumb.label}`} className="flex items-center gap-1">
              <ChevronRightIcon width="14" height="14" className="text-slate-500" />
              {current || !crumb.to ? (
                <span
                  aria-current={current ? 'page' : undefined}
                  className={current ? 'font-medium text-slate-800' : undefined}
                >
                  {crumb.label}
                </span>
              ) : (
                <Link to={crumb.to} className="hover:text-emerald-800">
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
