import { beforeAll, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { BroadcastAudienceSummary } from '@herald/contracts';
import { renderRoute } from '../../../test/render-with-store';
import { json, stubFetch } from '../../../test/fetch-stub';
import { withAccount } from '../test/broadcast-fixtures';
import { recipient, report } from '../test/report-fixtures';
import { BroadcastReportPage } from '../../../test/lazy-pages';

// The page is lazy: load its code before the tests' timers start (a busy machine takes seconds).
beforeAll(() => BroadcastReportPage.preload());

const toSegment: BroadcastAudienceSummary = {
  type: 'segment',
  tags: [],
  percentage: 55,
  leave_out_us: true,
  from_broadcast_id: null,
  recipients: 1234,
  segment: {
    id: 3,
    name: 'VIP readers',
    rules: ['Tags: any of “VIP”', 'AND Read a broadcast in the last 30 days'],
  },
};

function serve(status: string, audience: BroadcastAudienceSummary) {
  const answer = report(status === 'scheduled' ? [] : [recipient(1)], { count: 1, next: null });
  stubFetch(() => json({ ...answer, broadcast: { ...answer.broadcast, status, audience } }));
  renderRoute('/broadcast/7', { preloadedState: withAccount });
}

const rules = () =>
  within(screen.getByTestId('report-segment-rules'))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('Delivery report of a broadcast to a segment', () => {
  it('names the segment a scheduled broadcast will go to, with its rules', async () => {
    serve('scheduled', toSegment);
    const section = await screen.findByRole('region', { name: 'Who will receive it' }, { timeout: 5000 });
    expect(within(section).getByText(/^Who will receive it:/).textContent).toBe(
      'Who will receive it: Segment: VIP readers, 55% of its contacts (about 1,234 recipients), chosen when it starts; contacts who opted out are left out; +1 (US) numbers are left out.',
    );
    expect(rules()).toEqual(['Tags: any of “VIP”', 'AND Read a broadcast in the last 30 days']);
  });

  it('names the segment a started broadcast went to, with its rules as they were', async () => {
    serve('completed', { ...toSegment, percentage: 100, leave_out_us: false, recipients: 1 });
    const section = await screen.findByRole('region', { name: 'Who it was sent to' }, { timeout: 5000 });
    expect(within(section).getByText('Segment: VIP readers')).toBeTruthy();
    expect(
      within(section).getByText(
        'All its contacts (1 recipient), chosen when it started; contacts who opted out were left out.',
      ),
    ).toBeTruthy();
    expect(rules()).toEqual(['Tags: any of “VIP”', 'AND Read a broadcast in the last 30 days']);
  });

  it('says nothing of a segment for the other audiences', async () => {
    serve('completed', { ...toSegment, type: 'all', segment: null });
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Delivery Report: Summer launch' },
      { timeout: 5000 },
    );
    expect(screen.queryByRole('region', { name: 'Who it was sent to' })).toBeNull();
    expect(screen.queryByTestId('report-segment-rules')).toBeNull();
  });
});
