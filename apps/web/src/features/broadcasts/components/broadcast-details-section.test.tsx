import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
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
});
