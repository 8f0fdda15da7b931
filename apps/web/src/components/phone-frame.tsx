import type { ReactNode } from 'react';
import { TEMPLATE_UI_TEXT } from '@herald/contracts';

/**
 * The phone-style frame of a message preview — dark bezel, the chat's top bar and the chat wallpaper — around
 * the messages a preview puts in it. The bar names the sender as customers see it (the business's display
 * name); 'profile' stands in until the account has a number with one.
 */
export function PhoneFrame({
  label,
  sender,
  caption,
  children,
}: {
  label: string;
  /** The business's display name, or null when there is none yet. */
  sender: string | null;
  /** A line under the phone. */
  caption?: ReactNode;
  children: ReactNode;
}) {
  const name = sender ?? TEMPLATE_UI_TEXT.previewProfile;
  return (
    <figure aria-label={label} className="mx-auto w-full max-w-xs">
      <div className="overflow-hidden rounded-[2rem] border-8 border-slate-800 bg-slate-800 shadow-xl dark:border-black dark:bg-black">
        <div className="flex items-center gap-2 bg-emerald-700 px-3 py-2.5 text-white">
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-full bg-emerald-200 text-xs font-bold text-emerald-800"
          >
            {name.charAt(0).toUpperCase()}
          </span>
          <span className="truncate text-sm font-semibold" data-testid="preview-sender">
            {name}
          </span>
        </div>
        <div className="min-h-80 bg-[#e5ddd5] p-3">{children}</div>
      </div>
      {caption ? (
        <figcaption className="mt-2 text-center text-xs text-slate-500">{caption}</figcaption>
      ) : null}
    </figure>
  );
}

/**
 * A template button under a preview's bubble, as WhatsApp draws it: blue text on white. sky-700, not a lighter
 * blue: the text must keep 4.5:1 against the white.
 */
export function PreviewButton({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg bg-white px-2 py-1.5 text-center text-sm font-medium text-sky-700 shadow-sm">
      {children}
    </div>
  );
}
