import { CLICK_DEFINITIONS, type DashboardResponse } from '@herald/contracts';
import { formatCount, formatPercent } from '../format';
import { ChangeText, changeTone } from './metric-card';

/**
 * Under the Engagement Rate card: the tracked-link clicks of the range, their rate over the delivered messages
 * of broadcasts with a tracked link, and the change against the previous period. Nothing from a server that does
 * not count clicks, nor when no click and no tracked link are in either period.
 */
export function ClickLine({ clicks }: { clicks: DashboardResponse['clicks'] }) {
  if (!clicks || (clicks.clicked === 0 && clicks.previous === 0 && clicks.rate === null)) return null;
  const { clicked, rate, change } = clicks;
  return (
    <p data-testid="click-line" title={CLICK_DEFINITIONS.clicked} className="mt-1 text-xs text-slate-600">
      Clicked: {formatCount(clicked)}
      {rate !== null ? ` · ${formatPercent(rate)} click rate` : ''}
      {change !== null ? (
        <span className={`font-medium ${changeTone(change, change > 0)}`}>
          {' · '}
          <ChangeText change={change} />
        </span>
      ) : null}
    </p>
  );
}
