import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEFAULT_ACCOUNT_SETTINGS } from '@herald/contracts';
import { renderRoute, signedIn } from '../../../test/render-with-store';
import { json, pathOf, stubFetch } from '../../../test/fetch-stub';
import type { PreloadedState } from '../../../lib/store';
import { APPROVAL_NOTE } from './create-template-page';

const acme = { waba_id: '111', details: [{ display_name: 'Acme Shop' }] };
const withAccount: PreloadedState = {
  ...signedIn,
  waba: { wabaAccounts: [acme], selectedWabaAccount: acme },
};

/** The create page's reads; GET /settings/ answers after `release()` when `hold` is set. */
function server(defaultLanguage: 'en_US' | 'es' | 'fr', hold = false, approval = false) {
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  if (!hold) release();
  stubFetch(async (request) => {
    const path = pathOf(request);
    if (path === '/settings/') {
      await answered;
      return json({
        waba_id: '111',
        settings: {
          ...DEFAULT_ACCOUNT_SETTINGS,
          default_language: defaultLanguage,
          require_template_approval: approval,
        },
        mail_server_configured: false,
      });
    }
    if (path === '/recipient/cols') return json(['name']);
    return json({ contacts: 0, events: [], unread: 0 });
  });
  return { release };
}

const language = () => (screen.getByLabelText('Language') as HTMLSelectElement).value;

describe("Create template: the account's default language (Message Settings)", () => {
  it('starts a new template in the saved default language', async () => {
    server('fr');
    renderRoute('/template/create-template', { preloadedState: withAccount });
    await screen.findByRole('heading', { level: 1, name: 'Create Template' });
    await waitFor(() => expect(language()).toBe('fr'));
    const payload = JSON.parse(screen.getByLabelText('Template payload JSON').textContent ?? '{}');
    expect(payload.language).toBe('fr');
  });

  it('a language the user picked before the settings arrived is kept', async () => {
    const { release } = server('es', true);
    renderRoute('/template/create-template', { preloadedState: withAccount });
    await screen.findByRole('heading', { level: 1, name: 'Create Template' });
    expect(language()).toBe('en_US');
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'de' } });
    release();
    await waitFor(() => expect(language()).toBe('de'));
    // Give the settings' answer time to land; the choice still stands.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(language()).toBe('de');
  });

  it('says when new templates are kept as drafts (Require Approval on), and not otherwise', async () => {
    server('en_US', false, true);
    const first = renderRoute('/template/create-template', { preloadedState: withAccount });
    expect(await screen.findByText(APPROVAL_NOTE)).toBeTruthy();
    first.unmount();

    server('es');
    renderRoute('/template/create-template', { preloadedState: withAccount });
    // The settings have landed once their language shows.
    await waitFor(() => expect(language()).toBe('es'));
    expect(screen.queryByText(APPROVAL_NOTE)).toBeNull();
  });
});
