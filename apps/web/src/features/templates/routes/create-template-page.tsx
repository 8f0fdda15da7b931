import { PageHeader } from '../../../components/page-header';

export function CreateTemplatePage() {
  return <PageHeader title="Create Template" />;
}
