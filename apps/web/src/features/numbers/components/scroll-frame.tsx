import type { ReactNode } from 'react';
import { useHorizontalOverflow } from '../../../lib/use-horizontal-overflow';

export const SCROLL_HINT = 'Scroll sideways to see every column';

/**
 * A table frame that says when it scrolls sideways (at 1440 px the numbers table hid its last
 * columns and nothing showed they were there). The scrollbar is drawn as a bar (macOS overlay scrollbars
 * hide it until touched), a line above the table says the table scrolls, and a shade on the right edge stays until
 * the last column is reached. Measured from the real layout, so it appears only when the columns do not fit.
 */
export function ScrollFrame({ children, label }: { children: ReactNode; label: string }) {
  const { ref: frame, overflows, atEnd } = useHorizontalOverflow<HTMLDivElement>();

  return (
    <div>
      {overflows ? (
        <p className="mb-2 text-xs text-slate-500" data-testid="scroll-hint">
          {SCROLL_HINT} →
        </p>
      ) : null}
      <div className="relative">
        <div
          ref={frame}
          // Focusable so the keyboard can scroll it too; named so a screen reader says what it is.
          tabIndex={overflows ? 0 : undefined}
          role={overflows ? 'region' : undefined}
          aria-label={overflows ? label : undefined}
          className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs [&::-webkit-scrollbar]:h-2.5 [&::-webkit-scrollbar-thumb]:rounded-full [&::-webkit-scrollbar-thumb]:bg-slate-300 [&::-webkit-scrollbar-track]:bg-slate-50 focus-visible:ring-2 focus-visible:ring-emerald-500/40 focus-visible:outline-none"
        >
          {children}
        </div>
        {overflows && !atEnd ? (
          <div
            aria-hidden="true"
            data-testid="scroll-shade"
            className="pointer-events-none absolute inset-y-0 right-0 w-10 rounded-r-xl bg-gradient-to-l from-slate-900/10 to-transparent"
          />
        ) : null}
      </div>
    </div>
  );
}
