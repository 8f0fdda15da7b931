import type { ComponentType, SVGProps } from 'react';
import {
  DashboardIcon,
  MegaphoneIcon,
  PhoneIcon,
  SettingsIcon,
  TemplateIcon,
  UsersIcon,
} from '../../components/icons';

export type NavItem = {
  label: string;
  to: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** The badge's figure from GET /dashboard/header (the account's contact count); none otherwise. */
  badge?: 'contacts';
};

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: DashboardIcon },
  { label: 'Customers', to: '/customers', icon: UsersIcon, badge: 'contacts' },
  { label: 'Template', to: '/template', icon: TemplateIcon },
  { label: 'Broad Cast', to: '/broadcast', icon: MegaphoneIcon },
  { label: 'WhatsApp Number', to: '/number', icon: PhoneIcon },
  { label: 'Settings', to: '/settings', icon: SettingsIcon },
];

/** The id of the navigation drawer, which the header's menu button controls (aria-controls). */
export const NAV_DRAWER_ID = 'main-navigation-drawer';
