import { Fragment } from 'react';

/**
 * A template's name with a line-break opportunity after each underscore (it has no spaces to wrap at), in one
 * element: the stacked rows on a phone lay a cell's children out as separate items.
 */
export function WrappableName({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <span>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? (
            <>
              _<wbr />
            </>
          ) : null}
        </Fragment>
      ))}
    </span>
  );
}
