import type { PhoneNumber } from '@herald/contracts';
import { PageHeader } from '../../../components/page-header';
import { useAppSelector } from '../../../app/hooks';
import { errorText } from '../../../lib/error-text';
import { useGetPhoneNumbersQuery } from '../api';

type Column = { header: string; value: (number: PhoneNumber) => string | null | undefined };

/** Spec §2: the table's columns, in order. */
const COLUMNS: readonly Column[] = [
  { header: 'Verified Name', value: (n) => n.verified_name },
  { header: 'Display Phone Number', value: (n) => n.display_phone_number },
  { header: 'Code Verification Status', value: (n) => n.code_verification_status },
  { header: 'Quality Rating', value: (n) => n.quality_rating },
  { header: 'Platform Type', value: (n) => n.platform_type },
  { header: 'Throughput Level', value: (n) => n.throughput?.level },
  { header: 'Last Onboarded Time', value: (n) => n.last_onboarded_time },
  { header: 'ID', value: (n) => n.id },
];

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
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50">
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    className="px-4 py-3 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase"
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
                      <td key={column.header} className="px-4 py-3 whitespace-nowrap text-slate-700">
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
        </div>
      )}
    </>
  );
}
