import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import toast from 'react-hot-toast';
import { TEMPLATE_LOCKED_NOTE, TEMPLATE_MESSAGES, TEMPLATE_UI_TEXT } from '@herald/contracts';
import { PageHeader } from '../../../components/page-header';
import { useGetTemplateQuery } from '../api';
import { TemplateClicksPanel } from '../components/template-clicks-panel';
import { TemplateForm } from '../components/template-form';
import { TemplateStandingNotice } from '../components/template-lifecycle-notes';
import { formStateFromDetail } from '../template-form-state';

/**
 * Edit template (/templates/{templateId}): loading, then what Meta said of it (a rejection, a lock, a flag, a
 * coming category), the shared form and the template's clicks, or a load failure toast.
 */
export function EditTemplatePage() {
  const { templateId = '' } = useParams();
  // A fresh read each visit: the list may show a newer status or an edit made elsewhere.
  const { currentData, isError, error } = useGetTemplateQuery(templateId, {
    refetchOnMountOrArgChange: true,
  });
  const initial = useMemo(() => (currentData ? formStateFromDetail(currentData) : null), [currentData]);

  useEffect(() => {
    if (!isError) return;
    console.error('Loading the template failed', error);
    toast.error(TEMPLATE_MESSAGES.loadFailed);
  }, [isError, error]);

  return (
    <>
      <PageHeader title="Edit Template" description="Change the template and send the update for review." />
      {initial && currentData ? (
        <>
          <TemplateStandingNotice detail={currentData} />
          <TemplateForm
            key={templateId}
            mode="edit"
            templateId={templateId}
            initial={initial}
            lockIdentity={Boolean(currentData.template_id)}
            // Meta refuses edits to a locked template: say so before any work is done, not after Submit.
            submitBlockedReason={currentData.locked ? TEMPLATE_LOCKED_NOTE : undefined}
          />
          {currentData.category !== 'AUTHENTICATION' ? (
            // In the form's column, as wide as its sections.
            <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,3fr)]">
              <TemplateClicksPanel templateId={templateId} />
            </div>
          ) : null}
        </>
      ) : isError ? (
        <p className="text-sm text-slate-600">
          {TEMPLATE_MESSAGES.loadFailed}.{' '}
          <Link to="/template" className="font-medium text-emerald-700 hover:underline">
            Back to templates
          </Link>
        </p>
      ) : (
        <p role="status" className="text-sm text-slate-500">
          {TEMPLATE_UI_TEXT.loading}
        </p>
      )}
    </>
  );
}
