import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';

async function submit(email: string, pin: string, password: string) {
  await screen.findByRole('heading', { name: 'Forgot password' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('PIN'), { target: { value: pin } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('forgot password', () => {
  it('posts e-mail, PIN and new password, then confirms with a way back to sign-in', async () => {
    const success = vi.spyOn(toast, 'success');
    const fetch = stubFetch(() => json({ message: 'Your password has been updated. You can now sign in.' }));
    renderRoute('/forgot-password');
    await submit('ana@example.com', '482913', 'a new long password');

    expect((await screen.findByRole('status')).textContent).toBe(
      'Your password has been updated. You can now sign in.',
    );
    expect(success).toHaveBeenCalledWith('Your password has been updated. You can now sign in.');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/');
    const [request] = fetch.requests();
    expect(request && pathOf(request)).toBe('/api/auth/password/reset/');
    expect(request?.method).toBe('POST');
    expect(await request?.json()).toEqual({
      email: 'ana@example.com',
      pin: '482913',
      new_password: 'a new long password',
    });
  });

  it.each([
    [400, 'Invalid email or PIN'],
    [429, 'Too many attempts. Try again in 15 minutes.'],
  ])("shows the server's detail on %i", async (status, detail) => {
    stubFetch(() => json({ detail, errors: [] }, status, { 'Retry-After': '900' }));
    renderRoute('/forgot-password');
    await submit('ana@example.com', '0000', 'a new long password');
    expect((await screen.findByRole('alert')).textContent).toBe(detail);
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeTruthy();
  });

  it('checks the new password length before sending', async () => {
    const fetch = stubFetch(() => json({ message: 'ok' }));
    renderRoute('/forgot-password');
    await submit('ana@example.com', '482913', 'short');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Password must be at least 8 characters long.',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
