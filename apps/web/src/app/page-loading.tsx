/**
 * What a lazy page shows while its code downloads. It fills the space the page will take without a
 * fixed height, so the layout's frame (side navigation, header) does not move; role=status lets a screen
 * reader say that something is loading.
 */
export function PageLoading() {
  return (
    <div role="status" className="flex min-h-48 items-center justify-center py-12 text-sm text-slate-500">
      <span
        aria-hidden="true"
        className="mr-3 h-5 w-5 animate-spin rounded-full border-2 border-slate-300 border-t-emerald-600"
      />
      Loading…
    </div>
  );
}
