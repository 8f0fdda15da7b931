import { useEffect, useLayoutEffect, useRef } from 'react';
import { applyTheme } from '../../lib/theme';
import { useHeaderFigures } from './header-figures';

/** The account whose saved theme was dark when last read (a display hint, not a secret). */
export const DARK_ACCOUNT_KEY = 'herald:dark-theme-account';

function rememberedDarkAccount(): string | null {
  try {
    return localStorage.getItem(DARK_ACCOUNT_KEY);
  } catch {
    return null; // Storage refused (private mode): the header's answer still applies the theme.
  }
}

function rememberDarkAccount(wabaId: string | null): void {
  try {
    if (wabaId === null) localStorage.removeItem(DARK_ACCOUNT_KEY);
    else localStorage.setItem(DARK_ACCOUNT_KEY, wabaId);
  } catch {
    // As above: only the flash before the header's answer comes back.
  }
}

/**
 * Applies the selected account's saved dark theme (Other Settings) on every screen and load; the value comes
 * with the header's figures, so it costs no request of its own (decision 040). Only what the server said is
 * applied: while it is unknown the page stays as it is, and light comes back only where this hook made the
 * page dark, also when the layout goes away (the sign-in screen after Logout is light).
 */
export function useAccountTheme(): void {
  const { wabaId, currentData } = useHeaderFigures();
  const dark = currentData?.appearance?.dark_theme;
  const madeDark = useRef(false);

  // Before the first paint, the theme this account had last time: a dark account's reload does not flash
  // white while the header is read. The server's answer below confirms or corrects it.
  useLayoutEffect(() => {
    if (wabaId !== null && rememberedDarkAccount() === wabaId) {
      applyTheme(true);
      madeDark.current = true;
    }
    // Only the first paint needs it; later the server's value is known.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (dark === undefined || wabaId === null) return;
    rememberDarkAccount(dark ? wabaId : null);
    if (dark) {
      applyTheme(true);
      madeDark.current = true;
    } else if (madeDark.current) {
      applyTheme(false);
      madeDark.current = false;
    }
  }, [dark, wabaId]);

  useEffect(
    () => () => {
      if (madeDark.current) applyTheme(false);
    },
    [],
  );
}

/** 'Activate Beta Features' on: the header says so on every screen of the account (decision 040). */
export function BetaBadge() {
  const { currentData } = useHeaderFigures();
  if (!currentData?.appearance?.beta_features) return null;
  return (
    <span
      title="Beta features are on for this account (Settings, Other Settings)"
      className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-800"
    >
      Beta
    </span>
  );
}
