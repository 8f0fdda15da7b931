import { PageHeader } from '../../../components/page-header';

export function BroadcastHistoryPage() {
  return <PageHeader title="Broadcast History" />;
}
