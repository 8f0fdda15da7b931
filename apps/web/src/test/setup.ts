import { afterEach, vi } from 'vitest';
import { act, cleanup } from '@testing-library/react';
import toast from 'react-hot-toast';

// Vitest runs without globals, so Testing Library cannot register its own cleanup. Test files share a worker's
// modules (isolate: false), so what a module keeps between renders is reset here too: react-hot-toast's store.
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// jsdom has no matchMedia; react-hot-toast asks it for prefers-reduced-motion.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}
