/**
 * Switches the whole document between the light and the dark theme ('Enable Dark Theme for Dashboard').
 * The class drives Tailwind's `dark:` variant; color-scheme makes the browser's own parts (scrollbars, form
 * controls, date pickers) match.
 */
export function applyTheme(dark: boolean): void {
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
}
