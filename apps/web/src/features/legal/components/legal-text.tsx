import type { ReactNode } from 'react';

/** Body text of the legal pages. */
export function LegalText({ children }: { children: ReactNode }) {
  return <div className="space-y-3 text-sm leading-relaxed text-slate-600">{children}</div>;
}
