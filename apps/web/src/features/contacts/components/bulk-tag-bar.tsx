import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { Tag } from '@herald/contracts';
import { primaryButtonClass, secondaryButtonClass } from '../../../components/button-classes';
import { errorText } from '../../../lib/error-text';
import { useAddTagToContactsMutation, useRemoveTagFromContactsMutation } from '../api';
import { contactCount } from './contact-count';

type BulkTagBarProps = {
  /** The checked contacts' ids. */
  selected: number[];
  /** The account's tags: a removal names one of them. */
  tags: Tag[];
  onClear: () => void;
};

/**
 * Shown while rows are checked: 'Add tag' tags every checked contact (creating the tag when new), 'Remove
 * tag' takes an existing tag off them. Each is one request and, on the server, one statement.
 */
export function BulkTagBar({ selected, tags, onClear }: BulkTagBarProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [addTag, adding] = useAddTagToContactsMutation();
  const [removeTag, removing] = useRemoveTagFromContactsMutation();
  const busy = adding.isLoading || removing.isLoading;

  async function run(action: 'add' | 'remove', event?: FormEvent) {
    event?.preventDefault();
    const tagName = name.trim();
    if (busy) return;
    if (!tagName) {
      setFailure('Tag name is required');
      return;
    }
    try {
      if (action === 'add') {
        const result = await addTag({ contact_ids: selected, tag_name: tagName }).unwrap();
        toast.success(`Tag "${result.tag.name}" added to ${contactCount(result.changed)}`);
      } else {
        const tag = tags.find((known) => known.name.toLowerCase() === tagName.toLowerCase());
        if (!tag) {
          setFailure(`No tag is named "${tagName}"`);
          return;
        }
        const result = await removeTag({ contact_ids: selected, tag_id: tag.id }).unwrap();
        toast.success(`Tag "${result.tag.name}" removed from ${contactCount(result.changed)}`);
      }
      setName('');
      setFailure(null);
      onClear();
    } catch (error) {
      console.error('Changing the tags failed', error);
      setFailure(errorText(error));
    }
  }

  return (
    <form
      aria-label="Tag the selected contacts"
      onSubmit={(event) => void run('add', event)}
      className="mb-3 flex flex-wrap items-center gap-2 rounded-xl border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-emerald-800" aria-live="polite">
        {`${selected.length.toLocaleString('en-US')} selected`}
      </span>
      <label htmlFor={id} className="sr-only">
        Tag name
      </label>
      <input
        id={id}
        list={`${id}-tags`}
        value={name}
        maxLength={100}
        placeholder="Tag name"
        autoComplete="off"
        onChange={(event) => {
          setName(event.target.value);
          setFailure(null);
        }}
        className="w-48 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
      />
      <datalist id={`${id}-tags`}>
        {tags.map((tag) => (
          <option key={tag.id} value={tag.name} />
        ))}
      </datalist>
      <button type="submit" className={primaryButtonClass} disabled={busy}>
        Add tag
      </button>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={busy}
        onClick={() => void run('remove')}
      >
        Remove tag
      </button>
      <button type="button" className="px-2 text-emerald-800 underline" disabled={busy} onClick={onClear}>
        Clear selection
      </button>
      {failure ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {failure}
        </p>
      ) : null}
    </form>
  );
}
