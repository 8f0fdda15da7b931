import type { AccountHealthNotice } from '@herald/contracts';

type AccountHealthBannerProps = { accountName?: string; notices: AccountHealthNotice[] };

/**
 * What WhatsApp did to the selected account (a ban, a restriction, a policy violation, a review, lost access), on every screen, so
 * nobody wonders why broadcasts stopped. Nothing when the account is in good standing. A stop (sending is
 * stopped) is announced as an alert; a warning is only shown.
 */
export function AccountHealthBanner({ accountName, notices }: AccountHealthBannerProps) {
  if (notices.length === 0) return null;
  const stopped = notices.some((notice) => notice.severity === 'stop');
  return (
    <section
      role={stopped ? 'alert' : 'status'}
      aria-label="WhatsApp account status"
      className={`mb-4 rounded-lg border px-4 py-3 text-sm ${
        stopped ? 'border-red-200 bg-red-50 text-red-800' : 'border-amber-200 bg-amber-50 text-amber-900'
      }`}
    >
      <p className="font-semibold">
        {stopped ? 'Sending has stopped' : 'WhatsApp account notice'}
        {accountName ? ` for ${accountName}` : ''}
      </p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {notices.map((notice) => (
          <li key={notice.text}>{notice.text}</li>
        ))}
      </ul>
    </section>
  );
}
