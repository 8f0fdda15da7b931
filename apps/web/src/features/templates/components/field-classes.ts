/** The template form's text inputs, selects and textareas; red when the field has an error. */
export function fieldClass(invalid = false): string {
  return `block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:ring-2 focus:outline-none disabled:bg-slate-50 disabled:text-slate-500 ${
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20'
      : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-500/20'
  }`;
}

export const labelClass = 'mb-1.5 block text-sm font-medium text-slate-700';

export const smallButtonClass =
  'inline-flex items-center justify-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-xs font-semibold text-slate-700 shadow-xs transition hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:cursor-not-allowed disabled:opacity-60';

export const iconButtonClass =
  'rounded-lg p-1.5 text-slate-500 transition hover:bg-slate-100 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-emerald-600';
