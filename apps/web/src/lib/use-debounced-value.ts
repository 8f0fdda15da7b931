import { useEffect, useState } from 'react';

/**
 * `value`, once it has stayed the same for `delayMs` (compared as JSON, so a fresh object with the same
 * fields does not restart the wait). Screens use it to ask the server only after the user stops changing a form.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), delayMs);
    return () => clearTimeout(timer);
  }, [key, delayMs]);
  return settled;
}
