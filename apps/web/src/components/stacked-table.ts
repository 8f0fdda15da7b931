/**
 * Below Tailwind's `sm` (640 px) a list table is drawn as stacked rows, one card per row with each
 * cell under its column's name, so a phone sees every column (Status and Actions included) without scrolling
 * sideways. The markup stays a real table (screen readers keep rows and headers); only the layout changes.
 * Header cells holding a control (the select-all box) stay visible; the others are named on each cell instead.
 */
export const STACKED_TABLE_CLASS = [
  'max-sm:block max-sm:[&_tbody]:block max-sm:[&_thead]:block max-sm:[&_tr]:block',
  'max-sm:[&_thead_tr]:flex max-sm:[&_thead_th:not(:has(input))]:hidden',
  // The header's select-all box stands alone above the cards: say what it does beside it (CSS text, so the cells'
  // column names, read from the header's text, stay empty for the boxes).
  "max-sm:[&_thead_th:has(input)]:flex max-sm:[&_thead_th:has(input)]:w-auto max-sm:[&_thead_th:has(input)]:items-center max-sm:[&_thead_th:has(input)]:after:content-['Select_all']",
  'max-sm:[&_thead_th:has(input)]:after:ml-2 max-sm:[&_thead_th:has(input)]:after:text-xs max-sm:[&_thead_th:has(input)]:after:font-semibold max-sm:[&_thead_th:has(input)]:after:uppercase max-sm:[&_thead_th:has(input)]:after:text-slate-500',
  'max-sm:[&_tbody_tr]:py-2',
  // Each cell: its column's name on the left, the value on the right, wrapping instead of widening the page.
  // The name pushes the value's parts together to the right; a long value wraps under it.
  'max-sm:[&_td]:flex max-sm:[&_td]:flex-wrap max-sm:[&_td]:items-center max-sm:[&_td]:justify-end max-sm:[&_td]:gap-x-3 max-sm:[&_td]:gap-y-1',
  'max-sm:[&_td]:max-w-none max-sm:[&_td]:min-w-0 max-sm:[&_td]:py-1.5 max-sm:[&_td]:text-right',
  'max-sm:[&_td]:whitespace-normal max-sm:[&_td]:break-words',
  'max-sm:[&_td[data-label]]:before:mr-auto max-sm:[&_td[data-label]]:before:shrink-0 max-sm:[&_td[data-label]]:before:text-left',
  'max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-semibold',
  'max-sm:[&_td[data-label]]:before:text-slate-500 max-sm:[&_td[data-label]]:before:uppercase',
  'max-sm:[&_td[data-label]]:before:content-[attr(data-label)]',
  // A column pinned for sideways scrolling on wide screens needs no pinning when rows are stacked.
  'max-sm:[&_td]:static max-sm:[&_td]:shadow-none max-sm:[&_th]:static',
  // The empty and error rows span every column: centred, as on wide screens.
  'max-sm:[&_td[colspan]]:justify-center max-sm:[&_td[colspan]]:text-center',
].join(' ');

/**
 * A ref callback for the table: writes each body cell's column name (the text of its header cell) into
 * `data-label`, which the stacked layout shows before the value. Kept in step with the rows by a
 * MutationObserver, so pages need not pass labels; a callback (not an effect) so a table drawn after a loading
 * state is labelled too. A cell spanning columns (empty, error) or under a header with no text gets no label.
 */
export function labelStackedCells(element: HTMLTableElement | null): (() => void) | undefined {
  if (!element) return undefined;
  const label = () => {
    const names = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    for (const row of element.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, index) => {
        const name = cell.hasAttribute('colspan') ? '' : (names[index] ?? '');
        if (name) {
          if (cell.getAttribute('data-label') !== name) cell.setAttribute('data-label', name);
        } else if (cell.hasAttribute('data-label')) cell.removeAttribute('data-label');
      });
    }
  };
  label();
  // Attribute writes are not child-list changes, so labelling never wakes the observer again.
  const observer = new MutationObserver(label);
  observer.observe(element, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
}
