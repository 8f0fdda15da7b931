import { templateLifecycleNotes, type TemplateLifecycle, type TemplateListItem } from '@herald/contracts';

/** What Meta said of the template beside its status: a lock, a quality warning, a category change to come. */
export function TemplateLifecycleNotes({ item }: { item: TemplateLifecycle }) {
  const notes = templateLifecycleNotes(item);
  if (notes.length === 0) return null;
  return (
    <span className="mt-1 block text-xs text-amber-800">
      {notes.map((note) => (
        <span key={note} className="block">
          {note}
        </span>
      ))}
    </span>
  );
}

/** Meta's reason code and, when it gave one, its explanation and what to change. */
export function TemplateRejection({
  item,
}: {
  item: Pick<TemplateListItem, 'rejected_reason' | 'rejection_info'>;
}) {
  const code = item.rejected_reason && item.rejected_reason !== 'NONE' ? item.rejected_reason : null;
  const info = item.rejection_info;
  if (!code && !info) return <>—</>;
  return (
    <span className="block text-red-700">
      {code && <span className="block">{code}</span>}
      {info?.reason && <span className="block text-xs whitespace-normal">{info.reason}</span>}
      {info?.recommendation && (
        <span className="block text-xs whitespace-normal text-slate-600">{info.recommendation}</span>
      )}
    </span>
  );
}

/**
 * The edit page's word from Meta before any change is made: why it was rejected, a lock (Submit is off), a
 * quality warning, a category change to come. Nothing for a template Meta said nothing more of.
 */
export function TemplateStandingNotice({
  detail,
}: {
  detail: TemplateLifecycle & { status?: string; rejected_reason?: string | null } & Pick<
      TemplateListItem,
      'rejection_info'
    >;
}) {
  const rejected = detail.status === 'REJECTED';
  const notes = templateLifecycleNotes(detail);
  if (!rejected && notes.length === 0) return null;
  return (
    <section
      role="status"
      aria-label="What Meta said of this template"
      className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      {rejected ? (
        <div className="mb-1">
          <p className="font-semibold">Rejected by Meta: change it and submit it again.</p>
          <TemplateRejection
            item={{ rejected_reason: detail.rejected_reason ?? null, rejection_info: detail.rejection_info }}
          />
        </div>
      ) : null}
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </section>
  );
}
