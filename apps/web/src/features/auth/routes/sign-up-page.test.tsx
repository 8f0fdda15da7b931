import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { renderRoute } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { FacebookLoginResponse, FacebookSdk } from '../../../lib/embedded-signup';

const FB_ORIGIN = 'https://www.facebook.com';
const signupConfig = {
  sdk_url: 'https://connect.example/sdk.js',
  app_id: 'app-1',
  config_id: 'cfg-1',
  graph_version: 'v21.0',
  trusted_origins: [FB_ORIGIN],
  sandbox: false,
};

function post(message: unknown, origin = FB_ORIGIN) {
  window.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message), origin }));
}

const finishEvent = {
  type: 'WA_EMBEDDED_SIGNUP',
  event: 'FINISH',
  data: { phone_number_id: '222', waba_id: '111', business_id: '333' },
};

/** A window.FB whose login runs `script` (posting messages, answering the callback). */
function installSdk(script: (respond: (response: FacebookLoginResponse) => void) => void) {
  const sdk: FacebookSdk = { init: vi.fn(), login: vi.fn((callback) => script(callback)) };
  window.FB = sdk;
  return sdk;
}

afterEach(() => {
  delete window.FB;
});

async function fillForm(email: string, password: string) {
  await screen.findByRole('heading', { name: 'Create your account' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
}

describe('sign-up', () => {
  it('renders the form', async () => {
    renderRoute('/signup');
    await screen.findByRole('heading', { name: 'Create your account' });
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/');
    expect(screen.queryByLabelText('PIN')).toBeNull();

    fireEvent.click(screen.getByRole('switch', { name: 'Choose my own instead of a generated one' }));
    const pin = screen.getByLabelText('PIN') as HTMLInputElement;
    expect(pin.maxLength).toBe(6);
    expect(pin.inputMode).toBe('numeric');
    expect(screen.getByText('6 digits')).toBeTruthy();
    fireEvent.change(pin, { target: { value: '12a34567' } });
    expect(pin.value).toBe('123456');
  });

  it('checks the e-mail and password before the provider login starts', async () => {
    const fetch = stubFetch(() => json(signupConfig));
    const sdk = installSdk(() => {});
    renderRoute('/signup');
    await fillForm('not-an-email', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));

    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(sdk.login).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();

    // Fixing the e-mail clears its message as typed.
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ana@example.com' } });
    expect(screen.queryByText('Please enter a valid email address.')).toBeNull();
  });

  it('asks for exactly 6 digits when the user chooses a PIN, before the provider login starts', async () => {
    const fetch = stubFetch(() => json(signupConfig));
    const sdk = installSdk(() => {});
    renderRoute('/signup');
    await fillForm('ana@example.com', 'long enough password');
    fireEvent.click(screen.getByRole('switch', { name: 'Choose my own instead of a generated one' }));
    const pin = screen.getByLabelText('PIN');
    fireEvent.change(pin, { target: { value: '4829' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));

    expect(await screen.findByText('PIN must be 6 digits')).toBeTruthy();
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(sdk.login).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();

    // Completing the PIN clears the message as typed.
    fireEvent.change(pin, { target: { value: '482913' } });
    expect(screen.queryByText('PIN must be 6 digits')).toBeNull();
    expect(screen.getByText('6 digits')).toBeTruthy();
  });

  it('sends code, ids, e-mail, password and PIN, then opens /pin with the PIN; stores no password', async () => {
    const success = vi.spyOn(toast, 'success');
    const fetch = stubFetch((request) => {
      if (pathOf(request) === '/api/auth/signup-config/') return json(signupConfig);
      return json({ message: 'Signup successful', data: { pin: '482913' } });
    });
    // The ids arrive before the code, as with Meta's popup.
    const sdk = installSdk((respond) => {
      post(finishEvent, 'https://evilfacebook.com');
      post(finishEvent);
      respond({ authResponse: { code: 'one-time-code' } });
    });
    const { router, store } = renderRoute('/signup', {
      preloadedState: { auth: { accessToken: 'someone-else', refreshToken: 'r' } },
    });
    await fillForm('Ana@Example.com ', 'long enough password');
    fireEvent.click(screen.getByRole('switch', { name: 'Choose my own instead of a generated one' }));
    fireEvent.change(screen.getByLabelText('PIN'), { target: { value: '482913' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));

    expect(await screen.findByRole('heading', { name: 'PIN Created Successfully' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pin');
    expect(router.state.location.state).toEqual({ pin: '482913' });
    expect(success).toHaveBeenCalledWith('Signup successful');
    expect(sdk.init).toHaveBeenCalledWith({
      appId: 'app-1',
      autoLogAppEvents: true,
      xfbml: true,
      version: 'v21.0',
    });

    const signup = fetch.requests().find((r) => pathOf(r) === '/api/auth/facebook/callback/');
    expect(signup?.method).toBe('POST');
    expect(await signup?.json()).toEqual({
      code: 'one-time-code',
      waba_id: '111',
      phone_number_id: '222',
      account_data: { phone_number_id: '222', waba_id: '111', business_id: '333' },
      email: 'Ana@Example.com',
      password: 'long enough password',
      pin: '482913',
    });
    expect(store.getState().auth.accessToken).toBeNull();
    const stored = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage });
    expect(stored).not.toContain('long enough password');
  });

  it('shows the server message when the backend refuses, and stays', async () => {
    const error = vi.spyOn(toast, 'error');
    stubFetch((request) =>
      pathOf(request) === '/api/auth/signup-config/'
        ? json(signupConfig)
        : json({ detail: 'Email already registered', message: 'Email already registered' }, 409),
    );
    installSdk((respond) => {
      respond({ authResponse: { code: 'c' } });
      post(finishEvent);
    });
    const { router } = renderRoute('/signup');
    await fillForm('ana@example.com', 'long enough password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));

    await waitFor(() => expect(error).toHaveBeenCalledWith('Email already registered'));
    expect(router.state.location.pathname).toBe('/signup');
    expect(await screen.findByRole('button', { name: 'Sign up with Facebook' })).toBeTruthy();
  });

  it("says 'Login was cancelled or failed' when the provider login returns no session", async () => {
    const error = vi.spyOn(toast, 'error');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetch = stubFetch(() => json(signupConfig));
    installSdk((respond) => respond({ authResponse: null }));
    renderRoute('/signup');
    await fillForm('ana@example.com', 'long enough password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Login was cancelled or failed. Please try again.'),
    );
    expect(fetch.requests().map(pathOf)).toEqual(['/api/auth/signup-config/']);
  });

  it('reports missing account information when FINISH lacks the phone number id', async () => {
    const error = vi.spyOn(toast, 'error');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(() => json(signupConfig));
    installSdk((respond) => {
      post({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH_ONLY_WABA', data: { waba_id: '111' } });
      respond({ authResponse: { code: 'c' } });
    });
    renderRoute('/signup');
    await fillForm('ana@example.com', 'long enough password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Missing account information. Please try again.'));
  });

  it("says 'Facebook SDK not loaded' when the script defines no FB", async () => {
    const error = vi.spyOn(toast, 'error');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // The config cannot be loaded: there is nothing to start the provider login with.
    stubFetch(() => json({ detail: 'Service unavailable' }, 503));
    renderRoute('/signup');
    await fillForm('ana@example.com', 'long enough password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign up with Facebook' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Facebook SDK not loaded. Please refresh the page.'),
    );
  });
});
