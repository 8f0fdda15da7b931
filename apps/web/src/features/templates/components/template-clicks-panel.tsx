import { TEMPLATE_CLICKS_DAYS } from '@herald/contracts';
import { useGetTemplateClicksQuery } from '../api';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * A marketing or utility template's clicks over WhatsApp's 90-day look-back, two ways and said apart: WhatsApp's
 * template analytics count every tap on a button; Herald's tracked links count people, once each.
 */
export function TemplateClicksPanel({ templateId }: { templateId: string }) {
  const { data, isError, isLoading } = useGetTemplateClicksQuery(templateId, {
    refetchOnMountOrArgChange: true,
  });
  return (
    <section
      aria-label="Clicks"
      className="rounded-xl border border-slate-200 bg-white p-5 text-sm shadow-xs"
    >
      <h2 className="text-base font-semibold text-slate-900">{`Clicks, last ${TEMPLATE_CLICKS_DAYS} days`}</h2>
      {isLoading ? (
        <p role="status" className="mt-2 text-slate-500">
          Loading...
        </p>
      ) : isError || !data ? (
        <p className="mt-2 text-slate-600">The clicks could not be read now.</p>
      ) : (
        <dl className="mt-2 space-y-2">
          <div>
            <dt className="text-slate-500">Counted by WhatsApp (every tap on a button)</dt>
            <dd className="text-slate-800">
              {data.whatsapp ? (
                data.whatsapp.buttons.length === 0 ? (
                  'No taps'
                ) : (
                  <ul>
                    {data.whatsapp.buttons.map((line) => (
                      <li
                        key={`${line.type}:${line.button}`}
                      >{`${line.button}: ${count(line.count, 'tap', 'taps')}`}</li>
                    ))}
                  </ul>
                )
              ) : (
                data.whatsapp_unavailable
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Herald’s tracked links (people, once each)</dt>
            <dd className="text-slate-800">
              {data.tracked.people === 0
                ? 'Nobody clicked'
                : `${count(data.tracked.people, 'person', 'people')} clicked, in ${count(
                    data.tracked.broadcasts,
                    'broadcast',
                    'broadcasts',
                  )}`}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
