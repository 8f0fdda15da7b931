import type { ReactNode } from 'react';
import type { PhoneNumber } from '@herald/contracts';
import { PageHeader } from '../../../components/page-header';
import { labelStackedCells, STACKED_TABLE_CLASS } from '../../../components/stacked-table';
import { useAppSelector } from '../../../lib/store-hooks';
import { errorText } from '../../../lib/error-text';
import { useGetPhoneNumbersQuery } from '../api';
import { ScrollFrame } from '../components/scroll-frame';
import { formatGraphTime } from '../graph-time';

type Column = {
  header: string;
  value: (number: PhoneNumber) => ReactNode;
  /** How the column's cells lay out: short codes stay on one line, names and times may wrap. */
  cellClassName?: string;
};

const NOWRAP = 'whitespace-nowrap';

function onboardedTime(number: PhoneNumber): ReactNode {
  const raw = number.last_onboarded_time;
  if (!raw) return null;
  return (
    <time dateTime={raw} title={raw}>
      {formatGraphTime(raw)}
    </time>
  );
}

/** The table's columns, in order. */
const COLUMNS: readonly Column[] = [
  { header: 'Verified Name', value: (n) => n.verified_name, cellClassName: 'min-w-32 break-words' },
  { header: 'Display Phone Number', value: (n) => n.display_phone_number, cellClassName: NOWRAP },
  { header: 'Code Verification Status', value: (n) => n.code_verification_status },
  { header: 'Quality Rating', value: (n) => n.quality_rating },
  { header: 'Platform Type', value: (n) => n.platform_type },
  { header: 'Throughput Level', value: (n) => n.throughput?.level },
  { header: 'Last Onboarded Time', value: onboardedTime, cellClassName: 'min-w-28' },
  { header: 'ID', value: (n) => n.id, cellClassName: `${NOWRAP} tabular-nums` },
];

/**
 * At 1440 px every column fits (headers wrap, cells are tight); on narrower screens the table
 * scrolls sideways and ScrollFrame says so. On a phone its rows are stacked (every column in view).
 */
export function NumbersPage() {
  const wabaId = useAppSelector((state) => state.waba.selectedWabaAccount?.waba_id ?? null);
  // currentData, not data: after a change of account the previous account's rows must not linger.
  const { currentData, error, isFetching } = useGetPhoneNumbersQuery(wabaId);

  return (
    <>
      <PageHeader
        title="WhatsApp Numbers"
        description="The phone numbers of the selected business account."
      />
      {isFetching && !currentData ? (
        <p className="py-8 text-center text-sm text-slate-500">Loading...</p>
      ) : error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          Error: {errorText(error)}
        </p>
      ) : (
        <ScrollFrame label="WhatsApp numbers table">
          <table
            ref={labelStackedCells}
            className={`min-w-full divide-y divide-slate-200 text-sm ${STACKED_TABLE_CLASS}`}
          >
            <thead className="bg-slate-50">
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    className="px-3 py-3 text-left align-bottom text-xs font-semibold tracking-wide text-slate-500 uppercase"
                  >
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {currentData?.data.length ? (
                currentData.data.map((number) => (
                  <tr key={number.id} className="hover:bg-slate-50">
                    {COLUMNS.map((column) => (
                      <td
                        key={column.header}
                        className={`px-3 py-3 align-top text-slate-700 ${column.cellClassName ?? ''}`}
                      >
                        {column.value(number) ?? '—'}
                      </td>
                    ))}
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={COLUMNS.length} className="px-4 py-8 text-center text-slate-500">
                    No WhatsApp numbers for this account.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </ScrollFrame>
      )}
    </>
  );
}
