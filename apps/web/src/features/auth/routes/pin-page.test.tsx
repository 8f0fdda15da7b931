import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderRoute } from '../../../test/render-with-store';
import { COPIED_INDICATOR_MS } from './pin-page';

const writeText = vi.fn<(text: string) => Promise<void>>();

beforeEach(() => {
  writeText.mockReset().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('PIN screen', () => {
  it('without a PIN in the navigation state shows the error and a way back to sign-up', async () => {
    const { router } = renderRoute('/pin');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('PIN number not found. Please try signing up again.');
    expect(screen.queryByText('PIN Created Successfully')).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Return to Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('with a PIN shows it digit by digit and continues to sign-in', async () => {
    const { router } = renderRoute({ pathname: '/pin', state: { pin: '482913' } });
    expect(await screen.findByRole('heading', { name: 'PIN Created Successfully' })).toBeTruthy();
    expect(screen.getByText('Your account is now secured with a PIN')).toBeTruthy();
    const digits = within(screen.getByRole('list', { name: 'Your PIN' })).getAllByRole('listitem');
    expect(digits.map((digit) => digit.textContent)).toEqual(['4', '8', '2', '9', '1', '3']);
    expect(screen.queryByRole('alert')).toBeNull();
    // Sign-in asks for e-mail and password only: the note says where the PIN is asked for.
    expect(
      screen.getByText(/you will need it to access your account if you forget your password/).textContent,
    ).toMatch(/it sets a new one \(Forgot password\? on the sign-in screen\)/);

    fireEvent.click(screen.getByRole('link', { name: 'Continue to Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it("Copy copies the PIN and reads 'Copied' for 2 seconds", async () => {
    renderRoute({ pathname: '/pin', state: { pin: '1234' } });
    await screen.findByRole('heading', { name: 'PIN Created Successfully' });
    vi.useFakeTimers();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('1234');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();

    act(() => vi.advanceTimersByTime(COPIED_INDICATOR_MS - 1));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(COPIED_INDICATOR_MS).toBe(2000);
  });

  it("does not claim 'Copied' when the clipboard refuses", async () => {
    writeText.mockRejectedValue(new Error('denied'));
    renderRoute({ pathname: '/pin', state: { pin: '1234' } });
    await screen.findByRole('heading', { name: 'PIN Created Successfully' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });
});
