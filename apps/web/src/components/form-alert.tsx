import type { ReactNode } from 'react';

type FormAlertProps = { children: ReactNode; tone?: 'error' | 'success' };

/** A message above or below a form: an error (announced as an alert) or a confirmation. */
export function FormAlert({ children, tone = 'error' }: FormAlertProps) {
  return tone === 'error' ? (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {children}
    </div>
  ) : (
    <div
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
    >
      {children}
    </div>
  );
}
