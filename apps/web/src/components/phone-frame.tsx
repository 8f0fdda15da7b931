import type { ReactNode } from 'react';
import { TEMPLATE_UI_TEXT } from '@herald/contracts';

/**
 * The phone-style frame of a message preview — dark bezel, the fixed 'profile' bar and the chat
 * wallpaper — around the messages a preview puts in it.
 */
export function PhoneFrame({
  label,
  caption,
  children,
}: {
  label: string;
  /** A line under the phone. */
  caption?: ReactNode;
  children: ReactNode;
}) {
  return (
    <figure aria-label={label} className="mx-auto w-full max-w-xs">
      <div className="overflow-hidden rounded-[2rem] border-8 border-slate-800 bg-slate-800 shadow-xl dark:border-black dark:bg-black">
        <div className="flex items-center gap-2 bg-emerald-700 px-3 py-2.5 text-white">
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-full bg-emerald-200 text-xs font-bold text-emerald-800"
          >
            P
          </span>
          <span className="text-sm font-semibold">{TEMPLATE_UI_TEXT.previewProfile}</span>
        </div>
        <div className="min-h-80 bg-[#e5ddd5] p-3">{children}</div>
      </div>
      {caption ? (
        <figcaption className="mt-2 text-center text-xs text-slate-500">{caption}</figcaption>
      ) : null}
    </figure>
  );
}
