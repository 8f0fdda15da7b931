import { EXPIRED_REASON, percentChange, type DashboardResponse } from '@herald/contracts';
import { formatCount } from '../format';
import { ChangeText, changeTone } from './metric-card';

/**
 * Under the Failed Messages card: the messages of the range WhatsApp dropped undelivered at the end of their
 * time-to-live, which the card leaves out (not a failure), and the change against the previous period. Nothing
 * from a server that does not count them, nor when none expired in the range.
 */
export function ExpiredLine({ expired }: { expired: DashboardResponse['expired'] }) {
  if (!expired || expired.count === 0) return null;
  const change = percentChange(expired.count, expired.previous);
  return (
    <p data-testid="expired-line" title={EXPIRED_REASON.explanation} className="mt-1 text-xs text-slate-600">
      Expired: {formatCount(expired.count)}
      {change !== null ? (
        // Fewer expired messages is good news, as fewer failed ones are.
        <span className={`font-medium ${changeTone(change, change < 0)}`}>
          {' · '}
          <ChangeText change={change} />
        </span>
      ) : null}
    </p>
  );
}
