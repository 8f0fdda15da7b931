import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { DEFAULT_ACCOUNT_SETTINGS, type AccountSettings } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';

const acme = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [acme], selectedWabaAccount: acme },
};

afterEach(() => {
  document.documentElement.classList.remove('dark');
  document.documentElement.style.colorScheme = '';
});

type ServerOptions = {
  stored?: Partial<AccountSettings>;
  mail?: boolean;
  /** Answers PUT /settings/ with this instead of storing. */
  refuse?: () => Response;
  /** Answers GET /settings/ with this instead of the stored settings. */
  failRead?: () => Response;
  /** Meta's Marketing Messages API status of the account (ELIGIBLE unless said). */
  mmApi?: string;
};

const mmAnswer = (meta: string, requested: boolean) => ({
  waba_id: '111',
  state:
    meta === 'ONBOARDED'
      ? 'onboarded'
      : meta.startsWith('INELIGIBLE')
        ? 'not_eligible'
        : requested
          ? 'pending'
          : 'not_onboarded',
  meta_status: meta,
  reason: meta.startsWith('INELIGIBLE')
    ? 'The business’s country is not supported yet.'
    : requested
      ? 'Meta has emailed your business portfolio’s admins to accept the terms.'
      : null,
  requested_at: requested ? '2026-11-28T10:00:00.000Z' : null,
  status_since: '2026-11-28T10:00:00.000Z',
  can_start: meta === 'ELIGIBLE' && !requested,
  routes_marketing: meta === 'ONBOARDED',
});

/** GET/PUT /settings/ and the header's read, as the server answers them, keeping what is saved. */
function settingsServer({
  stored: initial = {},
  mail = false,
  refuse,
  failRead,
  mmApi = 'ELIGIBLE',
}: ServerOptions = {}) {
  let stored: AccountSettings = { ...DEFAULT_ACCOUNT_SETTINGS, ...initial };
  let requested = false;
  const answer = () => json({ waba_id: '111', settings: stored, mail_server_configured: mail });
  const fetch = stubFetch(async (request) => {
    const path = pathOf(request);
    if (path === '/dashboard/header') {
      return json({
        contacts: 0,
        events: [],
        unread: 0,
        appearance: { dark_theme: stored.dark_theme, beta_features: stored.beta_features },
      });
    }
    if (path === '/marketing-messages/') return json(mmAnswer(mmApi, requested));
    if (path === '/marketing-messages/onboarding/' && request.method === 'POST') {
      requested = true;
      return json(mmAnswer(mmApi, requested));
    }
    if (path === '/settings/' && request.method === 'GET') return failRead ? failRead() : answer();
    if (path === '/settings/' && request.method === 'PUT') {
      if (refuse) return refuse();
      stored = { ...stored, ...((await request.json()) as Partial<AccountSettings>) };
      return answer();
    }
    return json({ wabas: [acme] });
  });
  const puts = () => fetch.requests().filter((r) => pathOf(r) === '/settings/' && r.method === 'PUT');
  return { fetch, puts, stored: () => stored };
}

async function openTab(name: string, preloadedState: PreloadedState = withAccount) {
  const result = renderRoute('/settings', { preloadedState });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  fireEvent.click(screen.getByRole('tab', { name }));
  return result;
}

const checkbox = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const selectedText = (name: string) => select(name).selectedOptions[0]?.textContent;

describe('Message Settings', () => {
  it('shows the stored values; Save sends this tab’s options and says so in a toast and under the button', async () => {
    const success = vi.spyOn(toast, 'success');
    const server = settingsServer({ stored: { default_language: 'es', require_template_approval: true } });
    await openTab('Message Settings');

    await waitFor(() => expect(selectedText('Default Language')).toBe('Spanish'));
    expect(checkbox('Require Approval for New Templates').checked).toBe(true);

    fireEvent.change(select('Default Language'), { target: { value: 'fr' } });
    fireEvent.click(checkbox('Require Approval for New Templates'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toBe('Message Settings saved.');
    expect(success).toHaveBeenCalledWith('Message Settings saved');
    const [put] = server.puts();
    expect(put?.headers.get('X-WABA-ID')).toBe('111');
    expect(await put?.json()).toEqual({
      default_language: 'fr',
      require_template_approval: false,
      opt_out_words: DEFAULT_ACCOUNT_SETTINGS.opt_out_words,
      opt_in_words: DEFAULT_ACCOUNT_SETTINGS.opt_in_words,
      marketing_via_mm_api: true,
      frequency_cap_messages: 2,
      frequency_cap_days: 7,
    });
    expect(server.stored()).toMatchObject({ default_language: 'fr', require_template_approval: false });
  });

  it('shows the Marketing Messages API status; Start onboarding asks the server and shows it pending', async () => {
    const server = settingsServer();
    await openTab('Message Settings');
    expect((await screen.findByTestId('mm-api-state')).textContent).toBe('Not onboarded');
    fireEvent.click(screen.getByRole('button', { name: 'Start onboarding' }));
    await waitFor(() => expect(screen.getByTestId('mm-api-state').textContent).toBe('Pending'));
    expect(
      screen.getByText('Meta has emailed your business portfolio’s admins to accept the terms.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start onboarding' })).toBeNull();
    const posts = server.fetch
      .requests()
      .filter((r) => pathOf(r) === '/marketing-messages/onboarding/' && r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers.get('X-WABA-ID')).toBe('111');
  });

  it('an ineligible account says why and offers no onboarding; the routing choice is saved with the tab', async () => {
    const server = settingsServer({ mmApi: 'INELIGIBLE_COUNTRY_NOT_SUPPORTED' });
    await openTab('Message Settings');
    expect((await screen.findByTestId('mm-api-state')).textContent).toBe('Not eligible');
    expect(screen.getByText('The business’s country is not supported yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start onboarding' })).toBeNull();
    const route = checkbox('Send marketing templates through the Marketing Messages API');
    expect(route.checked).toBe(true);
    fireEvent.click(route);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    expect(server.stored().marketing_via_mm_api).toBe(false);
  });

  it('shows the opt-out and opt-in words and saves them as lists', async () => {
    const server = settingsServer({ stored: { opt_out_words: ['stop', 'baja'], opt_in_words: ['start'] } });
    await openTab('Message Settings');
    const optOut = () => screen.getByRole('textbox', { name: 'Opt-out Words' }) as HTMLInputElement;
    await waitFor(() => expect(optOut().value).toBe('stop, baja'));
    expect((screen.getByRole('textbox', { name: 'Opt-in Words' }) as HTMLInputElement).value).toBe('start');
    expect(optOut().getAttribute('aria-describedby')).toBeTruthy();

    fireEvent.change(optOut(), { target: { value: ' stop,  basta ya ,, PARA ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('status')).textContent).toBe('Message Settings saved.');
    expect(await server.puts()[0]?.json()).toMatchObject({
      opt_out_words: ['stop', 'basta ya', 'PARA'],
      opt_in_words: ['start'],
    });
  });

  it('a refused save shows the server’s words in a toast and an alert, and keeps the values typed', async () => {
    const error = vi.spyOn(toast, 'error');
    settingsServer({
      refuse: () =>
        json(
          {
            detail: 'Invalid request: default_language: Invalid option',
            errors: [{ field: 'default_language', message: 'Invalid option' }],
          },
          400,
        ),
    });
    await openTab('Message Settings');
    await waitFor(() => expect(select('Default Language').disabled).toBe(false));
    fireEvent.change(select('Default Language'), { target: { value: 'fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Message Settings were not saved: Invalid request: default_language: Invalid option',
    );
    expect(error).toHaveBeenCalledWith(
      'Message Settings were not saved: Invalid request: default_language: Invalid option',
    );
    expect(selectedText('Default Language')).toBe('French');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);

    // The next change clears the old outcome.
    fireEvent.click(checkbox('Require Approval for New Templates'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('Message Settings: the frequency cap', () => {
  const capBox = () => checkbox('Limit marketing messages per person');
  const messagesField = () =>
    screen.getByRole('spinbutton', { name: 'Marketing messages per person' }) as HTMLInputElement;
  const daysField = () => screen.getByRole('spinbutton', { name: 'Days' }) as HTMLInputElement;
  const hint = () => document.getElementById(capBox().getAttribute('aria-describedby') ?? '')?.textContent;
  const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  const putBody = async (server: ReturnType<typeof settingsServer>, index: number) =>
    (await server.puts()[index]?.json()) as Partial<AccountSettings>;

  it('shows the stored cap in words, saves new numbers, and saves no cap when unticked', async () => {
    const server = settingsServer({ stored: { frequency_cap_messages: 3, frequency_cap_days: 14 } });
    await openTab('Message Settings');
    await waitFor(() => expect(capBox().checked).toBe(true));
    expect(within(screen.getByRole('group', { name: 'Frequency cap' })).getByRole('checkbox')).toBe(capBox());
    expect(messagesField().value).toBe('3');
    expect(daysField().value).toBe('14');
    expect(hint()).toBe(
      'At most 3 marketing messages per person per 14 days, across all broadcasts and numbers. People over the cap are skipped, not sent.',
    );

    fireEvent.change(messagesField(), { target: { value: '1' } });
    fireEvent.change(daysField(), { target: { value: '1' } });
    expect(hint()).toBe(
      'At most 1 marketing message per person per day, across all broadcasts and numbers. People over the cap are skipped, not sent.',
    );
    save();
    expect((await screen.findByRole('status')).textContent).toBe('Message Settings saved.');
    expect(await putBody(server, 0)).toMatchObject({ frequency_cap_messages: 1, frequency_cap_days: 1 });

    fireEvent.click(capBox());
    expect(screen.queryByRole('spinbutton', { name: 'Marketing messages per person' })).toBeNull();
    save();
    await waitFor(() => expect(server.puts()).toHaveLength(2));
    const off = await putBody(server, 1);
    expect(off.frequency_cap_messages).toBeNull();
    expect(off).not.toHaveProperty('frequency_cap_days');
    await waitFor(() => expect(server.stored().frequency_cap_messages).toBeNull());
    // Ticked again, the numbers come back as they were.
    fireEvent.click(capBox());
    expect(messagesField().value).toBe('1');
    expect(daysField().value).toBe('1');
  });

  it('an account without a cap starts unticked; ticking it offers the default of 2 in 7 days', async () => {
    const server = settingsServer({ stored: { frequency_cap_messages: null, frequency_cap_days: 7 } });
    await openTab('Message Settings');
    await waitFor(() => expect(capBox().disabled).toBe(false));
    expect(capBox().checked).toBe(false);
    expect(screen.queryByRole('spinbutton', { name: 'Days' })).toBeNull();

    fireEvent.click(capBox());
    expect(messagesField().value).toBe('2');
    expect(daysField().value).toBe('7');
    expect(hint()).toBe(
      'At most 2 marketing messages per person per 7 days, across all broadcasts and numbers. People over the cap are skipped, not sent.',
    );
    save();
    await screen.findByRole('status');
    expect(await putBody(server, 0)).toMatchObject({ frequency_cap_messages: 2, frequency_cap_days: 7 });
  });

  it('names a number out of bounds under its field and saves nothing until it is fixed', async () => {
    const server = settingsServer();
    await openTab('Message Settings');
    await waitFor(() => expect(capBox().checked).toBe(true));

    fireEvent.change(daysField(), { target: { value: '31' } });
    fireEvent.change(messagesField(), { target: { value: '' } });
    save();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Message Settings were not saved: Marketing messages per person must be a whole number from 1 to 30. Days must be a whole number from 1 to 30',
    );
    expect(daysField().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(daysField().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Days must be a whole number from 1 to 30',
    );
    expect(messagesField().getAttribute('aria-invalid')).toBe('true');
    expect(server.puts()).toHaveLength(0);

    // Fixing a field takes its message away; the other stays until it is fixed too.
    fireEvent.change(daysField(), { target: { value: '30' } });
    expect(daysField().getAttribute('aria-invalid')).toBeNull();
    expect(messagesField().getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(messagesField(), { target: { value: '4' } });
    save();
    expect((await screen.findByRole('status')).textContent).toBe('Message Settings saved.');
    expect(await putBody(server, 0)).toMatchObject({ frequency_cap_messages: 4, frequency_cap_days: 30 });
  });

  it('shows the server’s message under the field it refused', async () => {
    const message = 'Days must be a whole number from 1 to 30';
    settingsServer({
      refuse: () =>
        json(
          {
            detail: `Invalid request: frequency_cap_days: ${message}`,
            errors: [{ field: 'body.frequency_cap_days', message }],
          },
          400,
        ),
    });
    await openTab('Message Settings');
    await waitFor(() => expect(capBox().checked).toBe(true));
    fireEvent.change(daysField(), { target: { value: '10' } });
    save();
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Message Settings were not saved: Invalid request: frequency_cap_days: ${message}`,
    );
    expect(daysField().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(daysField().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      message,
    );
    expect(messagesField().getAttribute('aria-invalid')).toBeNull();
  });
});

describe('Customer Settings', () => {
  it('saves e-mail notices and the retention; says plainly that no mail server is configured', async () => {
    const server = settingsServer({ stored: { notify_by_email: true, retention_years: 3 } });
    await openTab('Customer Settings');

    await waitFor(() => expect(checkbox('Notify Customers via Email').checked).toBe(true));
    expect(selectedText('Data Retention')).toBe('3 Years');
    expect(
      within(screen.getByRole('tabpanel')).getByText(
        'No mail server is configured: Herald cannot send e-mail until SMTP_URL is set.',
      ),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('tabpanel'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['1 Year', '3 Years', '5 Years']);

    fireEvent.change(select('Data Retention'), { target: { value: '1' } });
    fireEvent.click(checkbox('Notify Customers via Email'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toBe('Customer Settings saved.');
    expect(await server.puts()[0]?.json()).toEqual({ notify_by_email: false, retention_years: 1 });
  });

  it('says nothing about a mail server when one is configured', async () => {
    settingsServer({ mail: true });
    await openTab('Customer Settings');
    await waitFor(() => expect(checkbox('Notify Customers via Email').disabled).toBe(false));
    expect(screen.queryByText(/No mail server is configured/)).toBeNull();
  });
});

describe('Other Settings', () => {
  it('dark theme applies at once on Save, the header shows Beta, and both go away when turned off', async () => {
    const server = settingsServer();
    await openTab('Other Settings');
    await waitFor(() => expect(checkbox('Enable Dark Theme for Dashboard').disabled).toBe(false));
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(screen.queryByText('Beta')).toBeNull();

    fireEvent.click(checkbox('Enable Dark Theme for Dashboard'));
    fireEvent.click(checkbox('Activate Beta Features'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByRole('status')).textContent).toBe('Other Settings saved.');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(await server.puts()[0]?.json()).toEqual({ dark_theme: true, beta_features: true });
    // The header reads again after a save: its Beta badge follows.
    expect(await screen.findByText('Beta')).toBeTruthy();

    fireEvent.click(checkbox('Enable Dark Theme for Dashboard'));
    fireEvent.click(checkbox('Activate Beta Features'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('status');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    await waitFor(() => expect(screen.queryByText('Beta')).toBeNull());
  });
});

describe('reading the settings', () => {
  it('without an account the controls are shown with the defaults but nothing can be saved', async () => {
    stubFetch(() => json({ wabas: [] }));
    await openTab('Other Settings', signedIn);
    expect(checkbox('Enable Dark Theme for Dashboard').disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Connect a WhatsApp Business account to save these settings.')).toBeTruthy();
  });

  it('a failed read says so and offers to try again, which reads again', async () => {
    let failing = true;
    const server = settingsServer({
      stored: { default_language: 'fr' },
      failRead: () =>
        failing
          ? json({ detail: 'Internal server error' }, 500)
          : json({ waba_id: '111', settings: { ...DEFAULT_ACCOUNT_SETTINGS, default_language: 'fr' } }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await openTab('Message Settings');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The settings could not be loaded: Internal server error',
    );
    expect(screen.queryByRole('combobox', { name: 'Default Language' })).toBeNull();

    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // A body that is not settings (here without mail_server_configured) is not shown as if it were.
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'The settings could not be loaded: the server answered something else',
      ),
    );
    const reads = server.fetch.requests().filter((r) => pathOf(r) === '/settings/' && r.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });
});
