import type { ReactNode } from 'react';
import { secondaryButtonClass } from './button-classes';

/**
 * The lists' Previous and Next buttons, with whatever a screen shows between them (its page label);
 * each asks for the page next to `page`.
 */
export function PreviousNext({
  page,
  hasPrevious,
  hasNext,
  onPage,
  children,
}: {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
  children?: ReactNode;
}) {
  return (
    <>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!hasPrevious}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      {children}
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!hasNext}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </>
  );
}
