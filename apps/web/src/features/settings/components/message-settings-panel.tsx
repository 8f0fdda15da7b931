import { SETTINGS_LANGUAGES, type AccountSettings } from '@herald/contracts';
import { useState } from 'react';
import { FrequencyCapSetting, frequencyCapDraft, frequencyCapUpdate } from './frequency-cap-setting';
import { MarketingMessagesSection } from './marketing-messages-section';
import { CheckboxSetting, SelectSetting, WordListSetting, wordsOf } from './setting-controls';
import { SettingsTabForm } from './settings-tab-form';

type PanelProps = { wabaId: string | null; stored: AccountSettings };

/** Message Settings, saved per account: followed by new templates and by every customer's reply. */
export function MessageSettingsPanel({ wabaId, stored }: PanelProps) {
  const [language, setLanguage] = useState(stored.default_language);
  const [approval, setApproval] = useState(stored.require_template_approval);
  const [optOut, setOptOut] = useState(stored.opt_out_words.join(', '));
  const [optIn, setOptIn] = useState(stored.opt_in_words.join(', '));
  const [viaMmApi, setViaMmApi] = useState(stored.marketing_via_mm_api);
  const [cap, setCap] = useState(() => frequencyCapDraft(stored));
  const [refused, setRefused] = useState<Record<string, string>>({});
  return (
    <SettingsTabForm
      title="Message Settings"
      wabaId={wabaId}
      update={{
        default_language: language,
        require_template_approval: approval,
        opt_out_words: wordsOf(optOut),
        opt_in_words: wordsOf(optIn),
        marketing_via_mm_api: viaMmApi,
        ...frequencyCapUpdate(cap),
      }}
      onFieldErrors={setRefused}
    >
      <SelectSetting
        label="Default Language"
        options={SETTINGS_LANGUAGES.map(({ label, code }) => ({ label, value: code }))}
        value={language}
        onChange={setLanguage}
        disabled={wabaId === null}
        hint="New templates start in this language."
      />
      <CheckboxSetting
        label="Require Approval for New Templates"
        checked={approval}
        onChange={setApproval}
        disabled={wabaId === null}
        hint="New templates are kept as drafts and sent to WhatsApp for review only when someone presses Submit."
      />
      <WordListSetting
        label="Opt-out Words"
        value={optOut}
        onChange={setOptOut}
        disabled={wabaId === null}
        hint="A customer who replies with exactly one of these words (any case or accents, typed or a button) gets no more broadcasts. Separate words with commas."
      />
      <WordListSetting
        label="Opt-in Words"
        value={optIn}
        onChange={setOptIn}
        disabled={wabaId === null}
        hint="A customer who opted out and replies with one of these gets broadcasts again."
      />
      <FrequencyCapSetting
        draft={cap}
        onChange={setCap}
        errors={refused}
        onFieldEdited={(field) => setRefused(({ [field]: _edited, ...rest }) => rest)}
        disabled={wabaId === null}
      />
      <MarketingMessagesSection wabaId={wabaId} viaMmApi={viaMmApi} onViaMmApiChange={setViaMmApi} />
    </SettingsTabForm>
  );
}
