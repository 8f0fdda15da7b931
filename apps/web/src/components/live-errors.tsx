/**
 * Issue 19: a form's field errors read out when they appear. A live region is announced only when its content
 * changes after it is in the page, so this one is always drawn (empty when all is well) and only its text
 * changes. Screen readers only: the errors themselves show under their fields.
 */
export function LiveErrors({ messages }: { messages: readonly string[] }) {
  return (
    <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-errors">
      {messages.length > 0
        ? `${messages.length === 1 ? '1 error' : `${messages.length} errors`}: ${messages.join('. ')}`
        : ''}
    </div>
  );
}
