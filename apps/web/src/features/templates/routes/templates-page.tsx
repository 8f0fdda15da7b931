import { PageHeader } from '../../../components/page-header';

export function TemplatesPage() {
  return <PageHeader title="Your Templates" />;
}
