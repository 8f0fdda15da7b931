import { PageHeader } from '../../../components/page-header';

export function CustomersPage() {
  return <PageHeader title="Customers" />;
}
