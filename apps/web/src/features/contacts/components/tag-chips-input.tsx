import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { CloseIcon } from '../../../components/icons';

type TagChipsInputProps = {
  /** The tags chosen so far, by name. */
  value: string[];
  onChange: (names: string[]) => void;
  /** The account's tag names, offered as the user types. */
  suggestions: string[];
  error?: string | undefined;
};

/** Names compare as the server compares tags: case-insensitively. */
const sameTag = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The contact form's Tags: each tag a chip with a remove button; a name typed and confirmed with Enter, a
 * comma or 'Add' becomes a chip (an existing tag's spelling is kept, so 'vip' joins 'VIP').
 */
export function TagChipsInput({ value, onChange, suggestions, error }: TagChipsInputProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');

  function add() {
    const name = text.trim().replace(/,+$/, '').trim();
    setText('');
    if (!name || value.some((tag) => sameTag(tag, name))) return;
    onChange([...value, suggestions.find((known) => sameTag(known, name)) ?? name]);
  }

  function handleKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      // Enter would submit the whole form; here it confirms the tag.
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && text === '' && value.length) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        Tags
      </label>
      {value.length ? (
        <ul aria-label="Tags of this contact" className="mb-2 flex flex-wrap gap-1.5">
          {value.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-emerald-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200"
            >
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                className="rounded-full p-0.5 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-emerald-600"
                onClick={() => onChange(value.filter((kept) => kept !== tag))}
              >
                <CloseIcon width={12} height={12} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex gap-2">
        <input
          id={id}
          list={listId}
          value={text}
          placeholder="Type a tag and press Enter"
          autoComplete="off"
          maxLength={100}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={handleKey}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
        />
        <button
          type="button"
          onClick={add}
          disabled={!text.trim()}
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 disabled:opacity-60"
        >
          Add
        </button>
      </div>
      <datalist id={listId}>
        {suggestions
          .filter((name) => !value.some((tag) => sameTag(tag, name)))
          .map((name) => (
            <option key={name} value={name} />
          ))}
      </datalist>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
