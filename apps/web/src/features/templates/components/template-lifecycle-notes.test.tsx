import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { listItem } from '../test/template-fixtures';
import { TemplateLifecycleNotes, TemplateRejection } from './template-lifecycle-notes';

describe('template lifecycle notes', () => {
  it('shows a lock, a flag and a coming category as plain lines', () => {
    render(
      <TemplateLifecycleNotes
        item={listItem(1, {
          locked: true,
          flagged_at: '2026-01-01T00:00:00.000Z',
          pending_category: { category: 'MARKETING', effective_at: '2026-01-02T12:00:00.000Z' },
        })}
      />,
    );
    expect(screen.getByText('Locked by Meta: can be sent, cannot be edited')).toBeTruthy();
    expect(screen.getByText('Flagged by Meta: at risk of being disabled')).toBeTruthy();
    expect(screen.getByText('Category changes to MARKETING on Jan 2, 2026')).toBeTruthy();
  });

  it('shows nothing for a template Meta said nothing more of', () => {
    const { container } = render(<TemplateLifecycleNotes item={listItem(1)} />);
    expect(container.textContent).toBe('');
  });

  it('shows the rejection reason with Meta’s explanation and recommendation', () => {
    render(
      <TemplateRejection
        item={listItem(1, {
          status: 'REJECTED',
          rejected_reason: 'INVALID_FORMAT',
          rejection_info: { reason: 'A variable ends the body.', recommendation: 'Add words after it.' },
        })}
      />,
    );
    expect(screen.getByText('INVALID_FORMAT')).toBeTruthy();
    expect(screen.getByText('A variable ends the body.')).toBeTruthy();
    expect(screen.getByText('Add words after it.')).toBeTruthy();
  });
});
