import type { MmApiState } from '@herald/contracts';
import toast from 'react-hot-toast';
import { secondaryButtonClass } from '../../../components/button-classes';
import { errorText } from '../../../lib/error-text';
import {
  useGetMarketingMessagesQuery,
  useStartMarketingMessagesOnboardingMutation,
} from '../../../lib/marketing-messages-api';
import { CheckboxSetting } from './setting-controls';

const STATE_LABELS: Record<MmApiState, string> = {
  onboarded: 'Onboarded',
  pending: 'Pending',
  not_onboarded: 'Not onboarded',
  not_eligible: 'Not eligible',
  unknown: 'Not known yet',
};

const STATE_TONES: Record<MmApiState, string> = {
  onboarded: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-800',
  not_onboarded: 'bg-slate-100 text-slate-700',
  not_eligible: 'bg-red-100 text-red-800',
  unknown: 'bg-slate-100 text-slate-700',
};

type Props = {
  wabaId: string | null;
  viaMmApi: boolean;
  onViaMmApiChange: (value: boolean) => void;
};

/**
 * The account's Marketing Messages API onboarding as Meta says it, the owner's way to start it where Meta
 * allows it, and whether marketing templates go through it once onboarded (saved with the tab).
 */
export function MarketingMessagesSection({ wabaId, viaMmApi, onViaMmApiChange }: Props) {
  const { data, isFetching, isError } = useGetMarketingMessagesQuery(wabaId ?? '', {
    skip: wabaId === null,
    refetchOnMountOrArgChange: true,
  });
  const [start, { isLoading: starting }] = useStartMarketingMessagesOnboardingMutation();

  async function startOnboarding() {
    if (wabaId === null) return;
    try {
      await start(wabaId).unwrap();
      toast.success('Meta has emailed your business portfolio’s admins to accept the terms');
    } catch (error) {
      toast.error(`Onboarding was not started: ${errorText(error)}`);
    }
  }

  return (
    <section className="space-y-3 rounded-md border border-slate-200 p-4" aria-labelledby="mm-api-title">
      <h3 id="mm-api-title" className="text-base font-semibold text-slate-900">
        Marketing Messages API
      </h3>
      <p className="text-sm text-slate-600">
        Meta’s Marketing Messages API sends marketing templates with Meta’s delivery optimisation. Utility and
        authentication templates always go through the Cloud API.
      </p>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-slate-700">Status:</span>
        {data ? (
          <span
            data-testid="mm-api-state"
            className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATE_TONES[data.state]}`}
          >
            {STATE_LABELS[data.state]}
          </span>
        ) : (
          <span className="text-slate-500">
            {isError ? 'Could not be read' : isFetching ? 'Reading…' : '—'}
          </span>
        )}
        {data?.can_start ? (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={starting}
            onClick={() => void startOnboarding()}
          >
            {starting ? 'Starting…' : 'Start onboarding'}
          </button>
        ) : null}
      </div>
      {data?.reason ? <p className="text-sm text-slate-600">{data.reason}</p> : null}
      <CheckboxSetting
        label="Send marketing templates through the Marketing Messages API"
        checked={viaMmApi}
        onChange={onViaMmApiChange}
        disabled={wabaId === null}
        hint={
          data?.state === 'onboarded'
            ? viaMmApi
              ? 'Marketing broadcasts go through /marketing_messages; untick to send them through the Cloud API.'
              : 'Marketing broadcasts go through the Cloud API (/messages).'
            : 'Applies once the account is onboarded; until then every template goes through the Cloud API.'
        }
      />
    </section>
  );
}
