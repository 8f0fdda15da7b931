import { describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { INITIAL_BROADCAST_FORM } from '../broadcast-form';
import { templateItem } from '../test/broadcast-fixtures';
import { BroadcastDetailsSection } from './broadcast-details-section';

function renderDetails(templateId: string) {
  const templates = [
    templateItem(1, { template_name: 'summer_sale' }),
    templateItem(2, {
      template_name: 'order_update',
      category: 'UTILITY',
      locked: true,
      flagged_at: '2026-11-20T00:00:00.000Z',
      pending_category: { category: 'MARKETING', effective_at: '2026-12-01T00:00:00.000Z' },
    }),
    templateItem(3, { template_name: 'flash_sale', message_send_ttl_seconds: 43_200 }),
    templateItem(4, { template_name: 'capped_sale', max_price_bid_amount: 2_500 }),
  ];
  render(
    <MemoryRouter>
      <BroadcastDetailsSection
        state={{ ...INITIAL_BROADCAST_FORM, templateId }}
        onChange={() => {}}
        errors={{}}
        templates={templates}
      />
    </MemoryRouter>,
  );
}

describe('New broadcast: the chosen template', () => {
  it('says what Meta said of it: a flag, and a coming category with what it changes (not a lock: that stops only edits)', () => {
    renderDetails('2');
    const note = screen.getByRole('note', { name: 'What Meta said of this template' });
    expect([...note.querySelectorAll('span')].map((line) => line.textContent)).toEqual([
      'Flagged by Meta: at risk of being disabled',
      'Category changes to MARKETING on Dec 1, 2026: messages sent from then are charged at its rates',
    ]);
  });

  it('says nothing for a template Meta said nothing more of', () => {
    renderDetails('1');
    expect(screen.queryByRole('note', { name: 'What Meta said of this template' })).toBeNull();
  });

  it("gives a marketing template's time-to-live, its own or WhatsApp's default, and where to change it", () => {
    renderDetails('3');
    const note = screen.getByRole('note', { name: 'Time-to-live' });
    expect(note.textContent).toMatch(
      /^Time-to-live: 12 hours\. WhatsApp drops a message it could not deliver/,
    );
    expect(within(note).getByRole('link', { name: 'Change it on the template' }).getAttribute('href')).toBe(
      '/templates/3',
    );
    cleanup();
    renderDetails('1');
    expect(screen.getByRole('note', { name: 'Time-to-live' }).textContent).toMatch(
      /^Time-to-live: 30 days \(WhatsApp's default\)\./,
    );
    cleanup();
    // A utility template has none to show here.
    renderDetails('2');
    expect(screen.queryByRole('note', { name: 'Time-to-live' })).toBeNull();
  });

  it("gives a marketing template's maximum price and where to change it; none without one", () => {
    renderDetails('4');
    const note = screen.getByRole('note', { name: 'Maximum price' });
    expect(note.textContent).toMatch(
      /^Maximum price: \$0\.025 per delivered message\. WhatsApp charges this or less for each delivery/,
    );
    expect(within(note).getByRole('link', { name: 'Change it on the template' }).getAttribute('href')).toBe(
      '/templates/4',
    );
    cleanup();
    renderDetails('1');
    expect(screen.queryByRole('note', { name: 'Maximum price' })).toBeNull();
  });
});
