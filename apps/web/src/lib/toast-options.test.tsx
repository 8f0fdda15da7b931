import { afterEach, describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import toast, { Toaster } from 'react-hot-toast';
import { TOAST_LIMIT, toasterProps, toastOptions } from './toast-options';

afterEach(() => {
  act(() => toast.remove());
});

describe('toast defaults', () => {
  it('uses the spec durations per type', () => {
    expect(toastOptions.blank?.duration).toBe(4000);
    expect(toastOptions.error?.duration).toBe(4000);
    expect(toastOptions.success?.duration).toBe(2000);
    expect(toastOptions.loading?.duration).toBe(Infinity);
    expect(toastOptions.custom?.duration).toBe(4000);
    expect(toastOptions.duration).toBe(4000);
  });

  it('caps the width at 350px and removes dismissed toasts after 1000 ms', () => {
    expect(toastOptions.style?.maxWidth).toBe('350px');
    expect(toastOptions.removeDelay).toBe(1000);
  });

  it('places the container fixed with a 16px margin', () => {
    expect(toasterProps.containerStyle).toEqual({
      position: 'fixed',
      top: 16,
      right: 16,
      bottom: 16,
      left: 16,
    });
    expect(toasterProps.toastOptions).toBe(toastOptions);
  });

  it('shows at most 20 toasts at once (react-hot-toast enforces TOAST_LIMIT)', () => {
    expect(TOAST_LIMIT).toBe(20);
    const { container } = render(<Toaster {...toasterProps} />);
    act(() => {
      for (let i = 0; i < 25; i++) toast(`Message ${i}`);
    });
    expect(container.ownerDocument.querySelectorAll('[role="status"]')).toHaveLength(TOAST_LIMIT);
    // The newest are kept.
    expect(container.ownerDocument.body.textContent).toContain('Message 24');
    expect(container.ownerDocument.body.textContent).not.toContain('Message 4');
  });

  it('renders a success toast with the configured container', () => {
    render(<Toaster {...toasterProps} />);
    act(() => {
      toast.success('Template saved successfully!');
    });
    const status = document.querySelector('[role="status"]');
    expect(status?.textContent).toBe('Template saved successfully!');
    const containerEl = document.querySelector<HTMLElement>('[data-rht-toaster]');
    expect(containerEl?.style.position).toBe('fixed');
    expect(containerEl?.style.top).toBe('16px');
  });
});
