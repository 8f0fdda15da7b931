/**
 * A form's field errors are announced when they appear. A live region is read out only when its
 * content changes after it is in the page, so this one is always drawn (empty when all is well) and only its
 * text changes. It says how many fields need attention, not their words: focus moves to the first invalid field,
 * whose error is read with it (aria-describedby), and the words are not repeated in the page.
 */
export function LiveErrors({ count }: { count: number }) {
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-errors">
      {count === 0 ? '' : count === 1 ? '1 field needs attention' : `${count} fields need attention`}
    </div>
  );
}
