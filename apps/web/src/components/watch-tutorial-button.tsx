import { useState } from 'react';
import { secondaryButtonClass } from './button-classes';
import { ModalDialog } from './modal-dialog';

/** The screens that have a guide. */
export type TutorialGuide = 'templates' | 'broadcasts';

type Guide = { title: string; description: string; steps: readonly string[] };

// Decision 038: 'Watch Tutorial' opens a short written guide of the screen's real steps (no video to host or
// keep in step with the screens); each step names the controls exactly as they read.
const GUIDES: Record<TutorialGuide, Guide> = {
  templates: {
    title: 'How templates work',
    description: 'WhatsApp only delivers a broadcast built on a template Meta has approved.',
    steps: [
      "Press 'New Template Message'. Give the template a name (lowercase letters and underscores), a category and a language.",
      'Add an optional header (text, image, video, document or location), the body, an optional footer and buttons. Write {{1}}, {{2}} in the body for the values that change per customer; the preview on the right shows what customers see.',
      "Press 'Save Template'. Herald sends it to Meta for review and its status reads PENDING until Meta approves or rejects it; a rejected template shows Meta's reason.",
      "When 'Require Approval for New Templates' is on in Settings, a new template stays a DRAFT until someone presses its 'Submit' button.",
      "The refresh button ('Refresh from Meta') re-reads every status and quality score from Meta. Edit a template with its pencil: an edited template goes back to review.",
      "Once a template is APPROVED, choose it in 'New Broadcast'.",
    ],
  },
  broadcasts: {
    title: 'How broadcasts work',
    description: 'A broadcast sends one approved template to many customers and counts what happens to it.',
    steps: [
      "Press 'New Broadcast', name the broadcast and choose an approved template.",
      "Choose the recipients: 'All Contacts', or 'Filter by Tags' to reach tagged customers only. The percentage slider sends to a share of them.",
      "Press 'Send Broadcast' to send now, or turn on scheduling, pick a date and time and press 'Schedule Broadcast'.",
      'Follow it here: the cards and the table show how many messages were sent, delivered, read and failed, as WhatsApp reports them.',
      "Pause, resume or cancel a broadcast from its row, and open its report to see each recipient's outcome and the reason of each failure.",
    ],
  },
};

type WatchTutorialButtonProps = { guide: TutorialGuide };

/** The spec's 'Watch Tutorial' button: opens a short step-by-step guide of the screen it sits on. */
export function WatchTutorialButton({ guide }: WatchTutorialButtonProps) {
  const [open, setOpen] = useState(false);
  const { title, description, steps } = GUIDES[guide];
  return (
    <>
      <button type="button" className={secondaryButtonClass} onClick={() => setOpen(true)}>
        Watch Tutorial
      </button>
      {open ? (
        <ModalDialog title={title} description={description} onClose={() => setOpen(false)}>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-700">
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <div className="mt-6 flex justify-end">
            <button type="button" className={secondaryButtonClass} onClick={() => setOpen(false)}>
              Got it
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </>
  );
}
