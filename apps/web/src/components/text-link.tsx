import { Link } from 'react-router';
import type { LinkProps } from 'react-router';
import { textLinkClass } from './text-link-class';

/** An in-app link in the accent colour. */
export function TextLink({ className = '', ...props }: LinkProps) {
  return <Link className={`${textLinkClass} ${className}`} {...props} />;
}
