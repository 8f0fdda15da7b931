import { SectionCard } from './section-card';

type BroadcastSummaryProps = {
  templateName: string | null;
  recipients: string;
  sendingTime: string;
};

/** New broadcast: the Summary (Template, Recipients, Sending Time). */
export function BroadcastSummary({ templateName, recipients, sendingTime }: BroadcastSummaryProps) {
  const rows: Array<[string, string]> = [
    ['Template', templateName ?? 'Not selected'],
    ['Recipients', recipients],
    ['Sending Time', sendingTime],
  ];
  return (
    <SectionCard title="Summary">
      <dl className="divide-y divide-slate-100 text-sm">
        {rows.map(([term, detail]) => (
          <div key={term} className="flex justify-between gap-4 py-2 first:pt-0 last:pb-0">
            <dt className="text-slate-500">{term}</dt>
            <dd className="text-right font-medium text-slate-900">{detail}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}
