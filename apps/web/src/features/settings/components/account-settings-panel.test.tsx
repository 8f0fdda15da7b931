import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderWithStore, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import {
  ACCOUNT_SAVED,
  AccountSettingsPanel,
  CURRENT_PASSWORD_REQUIRED,
  NOTHING_TO_CHANGE,
  PASSWORDS_DIFFER,
} from './account-settings-panel';

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

/** PUT /api/auth/account/ as the server answers it, or with `answer`. */
function accountServer(answer?: () => Response) {
  const fetch = stubFetch(async (request) => {
    if (pathOf(request) === '/api/auth/account/' && request.method === 'PUT') {
      if (answer) return answer();
      const body = (await request.json()) as { email?: string; email_code?: string };
      // As the server does: a new e-mail is first only mailed a code, and changes when the code comes back.
      if (body.email && !body.email_code)
        return json({
          message: `We sent a confirmation to ${body.email}. Your sign-in email changes once you enter its code.`,
          email: 'owner@acme.test',
          pending_email: body.email,
        });
      return json({
        message: 'Your account has been updated. Other sessions have been signed out.',
        email: body.email ?? 'owner@acme.test',
      });
    }
    return json({}, 404);
  });
  const puts = () => fetch.requests().filter((r) => pathOf(r) === '/api/auth/account/');
  return { puts };
}

function renderPanel() {
  return renderWithStore(<AccountSettingsPanel />, { preloadedState: signedIn });
}

describe('AccountSettingsPanel', () => {
  it("keeps the spec's labels and asks for the current password", () => {
    accountServer();
    renderPanel();
    expect(screen.getByRole('heading', { name: 'Account Settings' })).toBeTruthy();
    for (const label of ['Current Password', 'Change Email', 'Change Password', 'Confirm New Password'])
      expect(input(label)).toBeTruthy();
    expect(input('Current Password').type).toBe('password');
  });

  it('names each mistake before any request: no current password, nothing to change, a bad e-mail, a short or unconfirmed password', async () => {
    const server = accountServer();
    renderPanel();
    save();
    expect((await screen.findByText(CURRENT_PASSWORD_REQUIRED)).textContent).toBe(CURRENT_PASSWORD_REQUIRED);
    expect(screen.getByText(NOTHING_TO_CHANGE)).toBeTruthy();

    type('Current Password', 'correct horse');
    type('Change Email', 'not-an-email');
    type('Change Password', 'short');
    save();
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeTruthy();

    type('Change Email', '');
    type('Change Password', 'battery staple');
    type('Confirm New Password', 'battery stapler');
    save();
    expect(await screen.findByText(PASSWORDS_DIFFER)).toBeTruthy();
    expect(input('Confirm New Password').getAttribute('aria-invalid')).toBe('true');
    expect(server.puts()).toHaveLength(0);
  });

  it('sends only what changed, says it was saved (toast and a line that stays) and empties the fields', async () => {
    const success = vi.spyOn(toast, 'success');
    const server = accountServer();
    renderPanel();
    type('Current Password', 'correct horse');
    type('Change Password', 'battery staple');
    type('Confirm New Password', 'battery staple');
    save();

    const status = await screen.findByRole('status');
    expect(status.textContent).toBe(`${ACCOUNT_SAVED} You sign in as owner@acme.test.`);
    expect(success).toHaveBeenCalledWith('Account Settings saved', { id: 'account-settings' });
    expect(await server.puts()[0]!.json()).toEqual({
      current_password: 'correct horse',
      new_password: 'battery staple',
    });
    for (const label of ['Current Password', 'Change Email', 'Change Password', 'Confirm New Password'])
      expect(input(label).value).toBe('');
  });

  it('says a confirmation was sent for a new e-mail, asks for its code, and changes it once the code is entered', async () => {
    const server = accountServer();
    renderPanel();
    type('Current Password', 'correct horse');
    type('Change Email', ' new@acme.test ');
    save();

    await screen.findByText(
      'We sent a confirmation to new@acme.test. Your sign-in email changes once you enter its code.',
    );
    expect(await server.puts()[0]!.json()).toEqual({
      current_password: 'correct horse',
      email: 'new@acme.test',
    });
    expect(input('Change Email').value).toBe('new@acme.test');
    expect(screen.queryByText(/You sign in as new@acme.test/)).toBeNull();

    type('Current Password', 'correct horse');
    type('Confirmation Code', '1234');
    save();
    expect(await screen.findByText('The confirmation code has 8 digits.')).toBeTruthy();
    type('Confirmation Code', '12345678');
    save();
    await screen.findByText(`${ACCOUNT_SAVED} You sign in as new@acme.test.`);
    expect(await server.puts()[1]!.json()).toEqual({
      current_password: 'correct horse',
      email: 'new@acme.test',
      email_code: '12345678',
    });
    expect(screen.queryByLabelText('Confirmation Code')).toBeNull();
  });

  it("shows the server's refusal under the field it names, and as an error", async () => {
    const error = vi.spyOn(toast, 'error');
    const message = 'The current password is not correct.';
    accountServer(() => json({ detail: message, errors: [{ field: 'current_password', message }] }, 400));
    renderPanel();
    type('Current Password', 'wrong one');
    type('Change Password', 'battery staple');
    type('Confirm New Password', 'battery staple');
    save();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(`Account Settings were not saved: ${message}`);
    expect(error).toHaveBeenCalledWith(`Account Settings were not saved: ${message}`, {
      id: 'account-settings',
    });
    expect(input('Current Password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText(message).length).toBeGreaterThan(0);
  });
});
