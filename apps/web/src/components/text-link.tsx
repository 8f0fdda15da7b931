import { Link } from 'react-router';
import type { LinkProps } from 'react-router';

/** An in-app link in the accent colour. */
export function TextLink({ className = '', ...props }: LinkProps) {
  return (
    <Link
      className={`font-medium text-emerald-700 hover:text-emerald-800 hover:underline ${className}`}
      {...props}
    />
  );
}
