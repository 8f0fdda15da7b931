import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { createMemoryRouter } from 'react-router';
import { TOAST_LIMIT } from './toast-options';
import { AppToaster } from './app-toaster';

afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
});

function regions() {
  const announcer = screen.getByTestId('toast-announcer');
  return {
    polite: within(announcer).getByRole('status'),
    assertive: within(announcer).getByRole('alert'),
  };
}

describe('toasts for screen readers', () => {
  it('keeps both live regions in the page, empty, before any toast', () => {
    render(<AppToaster />);
    const { polite, assertive } = regions();
    expect(polite.getAttribute('aria-live')).toBe('polite');
    expect(assertive.getAttribute('aria-live')).toBe('assertive');
    expect(polite.textContent).toBe('');
    expect(assertive.textContent).toBe('');
  });

  it('speaks success politely and errors assertively, once each', () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Template saved successfully!');
      toast.error('Error saving template:');
    });
    const { polite, assertive } = regions();
    expect(polite.textContent).toBe('Template saved successfully!');
    expect(assertive.textContent).toBe('Error saving template:');
    // The toasts themselves are on screen but not live regions, so nothing is read twice.
    const shown = document.querySelectorAll('[data-rht-toaster] [role="status"]');
    expect(shown).toHaveLength(2);
    shown.forEach((element) => expect(element.getAttribute('aria-live')).toBe('off'));
  });

  it('speaks the same message shown twice as two lines, and a loading toast again when it settles', () => {
    render(<AppToaster />);
    let id = '';
    act(() => {
      toast('Copied');
      toast('Copied');
      id = toast.loading('Connecting…');
    });
    expect([...regions().polite.children].map((line) => line.textContent)).toEqual([
      'Connecting…',
      'Copied',
      'Copied',
    ]);
    act(() => {
      toast.error('Could not connect', { id });
    });
    expect(regions().assertive.textContent).toBe('Could not connect');
    expect(regions().polite.textContent).not.toContain('Connecting…');
  });

  it('leaves a toast out once it is dismissed, after the spec durations (success 2 s, error 4 s)', () => {
    vi.useFakeTimers();
    render(<AppToaster />);
    act(() => {
      toast.success('Signup successful');
      toast.error('Login failed. Please try again.');
    });
    act(() => vi.advanceTimersByTime(1999));
    expect(regions().polite.textContent).toBe('Signup successful');
    act(() => vi.advanceTimersByTime(2));
    expect(regions().polite.textContent).toBe('');
    expect(regions().assertive.textContent).toBe('Login failed. Please try again.');
    act(() => vi.advanceTimersByTime(2000));
    expect(regions().assertive.textContent).toBe('');
  });

  it(`announces at most ${TOAST_LIMIT} toasts, the newest`, () => {
    render(<AppToaster />);
    act(() => {
      for (let i = 0; i < TOAST_LIMIT + 5; i++) toast(`Message ${i}`);
    });
    const lines = [...regions().polite.children].map((line) => line.textContent);
    expect(lines).toHaveLength(TOAST_LIMIT);
    expect(lines).toContain(`Message ${TOAST_LIMIT + 4}`);
    expect(lines).not.toContain('Message 4');
  });
});

describe('error toasts belong to their screen', () => {
  function memoryRouter() {
    const page = { element: null };
    return createMemoryRouter(
      [
        { path: '/', ...page },
        { path: '/dashboard', ...page },
      ],
      { initialEntries: ['/'] },
    );
  }

  it("dismisses the screen's error toasts when the user moves to another screen, and keeps the rest", async () => {
    const router = memoryRouter();
    render(<AppToaster navigation={router} />);
    act(() => {
      toast.error('Invalid email or password');
      toast.success('Signup successful');
    });
    // A search or page change on the same screen keeps the error.
    await act(() => router.navigate('/?page=2'));
    expect(regions().assertive.textContent).toBe('Invalid email or password');

    await act(() => router.navigate('/dashboard'));
    expect(regions().assertive.textContent).toBe('');
    expect(regions().polite.textContent).toBe('Signup successful');

    // An error raised on the new screen is shown as usual.
    act(() => {
      toast.error('Error: Network error');
    });
    expect(regions().assertive.textContent).toBe('Error: Network error');
    router.dispose();
  });
});
