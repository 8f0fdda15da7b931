import { SearchIcon } from './icons';

/**
 * The lists' search box that searches when Enter is pressed (broadcast history and templates), not as the user
 * types: `onSearch` gets the trimmed text. The caller keeps the text, so it survives re-renders and paging.
 */
export function SearchOnEnter({
  label,
  placeholder,
  text,
  onTextChange,
  onSearch,
  className = 'w-64',
}: {
  label: string;
  placeholder: string;
  text: string;
  onTextChange: (text: string) => void;
  onSearch: (search: string) => void;
  /** Width classes of the box. */
  className?: string;
}) {
  return (
    <div className={`relative ${className}`}>
      <SearchIcon
        width={16}
        height={16}
        className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
      />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={(event) => onTextChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          onSearch(text.trim());
        }}
        className="block w-full rounded-lg border border-slate-300 bg-white py-1.5 pr-3 pl-9 text-sm text-slate-900 shadow-xs placeholder:text-slate-500 focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/20 focus:outline-none"
      />
    </div>
  );
}
