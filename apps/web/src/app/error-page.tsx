import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useDocumentTitle } from './document-title';
import { primaryButtonClass } from '../components/button-classes';

export const ERROR_PAGE_TITLE = 'Unexpected Application Error';

function messageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Something went wrong.';
}

/** The root errorElement: shows what failed (never a stack trace) and a way back. */
export function ErrorPage() {
  const error = useRouteError();
  useDocumentTitle(ERROR_PAGE_TITLE);

  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-12">
      <section className="w-full max-w-lg rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-red-100 text-xl font-bold text-red-600">
          !
        </div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{ERROR_PAGE_TITLE}</h1>
        <p className="mt-3 text-sm break-words text-slate-600" data-testid="error-message">
          {messageOf(error)}
        </p>
        <Link to="/" reloadDocument className={`${primaryButtonClass} mt-6`}>
          Back to Herald
        </Link>
      </section>
    </main>
  );
}
