import { FLATTENED_VARIABLE_NOTE } from '@herald/contracts';

/**
 * Beside a variable bound to a contact column: WhatsApp refuses line breaks, tabs and runs of spaces in a
 * variable, so Herald sends the column's values flattened, and says so where it is chosen.
 */
export function FlattenedVariableNote({ id }: { id: string }) {
  return (
    <p id={id} className="mt-1 text-xs text-slate-500">
      {FLATTENED_VARIABLE_NOTE}
    </p>
  );
}
