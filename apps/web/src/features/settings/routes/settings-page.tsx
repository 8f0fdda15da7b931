import { PageHeader } from '../../../components/page-header';

export function SettingsPage() {
  return <PageHeader title="Settings" />;
}
