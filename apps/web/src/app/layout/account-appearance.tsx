import { useEffect, useRef } from 'react';
import { applyTheme } from '../../lib/theme';
import { useHeaderFigures } from './header-figures';

/**
 * Applies the selected account's saved dark theme (Other Settings) on every screen and load; the value comes
 * with the header's figures, so it costs no request of its own (decision 040). Only what the server said is
 * applied: while it is unknown the page stays as it is, and light comes back only where this hook made the
 * page dark, also when the layout goes away (the sign-in screen after Logout is light).
 */
export function useAccountTheme(): void {
  const { currentData } = useHeaderFigures();
  const dark = currentData?.appearance?.dark_theme;
  const madeDark = useRef(false);

  useEffect(() => {
    if (dark === undefined) return;
    if (dark) {
      applyTheme(true);
      madeDark.current = true;
    } else if (madeDark.current) {
      applyTheme(false);
      madeDark.current = false;
    }
  }, [dark]);

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
