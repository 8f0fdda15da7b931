import { PageHeader } from '../../../components/page-header';

export function NumbersPage() {
  return <PageHeader title="WhatsApp Numbers" />;
}
