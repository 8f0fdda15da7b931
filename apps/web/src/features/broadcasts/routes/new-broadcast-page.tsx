import { PageHeader } from '../../../components/page-header';

export function NewBroadcastPage() {
  return <PageHeader title="New Broadcast" />;
}
