import { PageHeader } from '../../../components/page-header';

export function EditTemplatePage() {
  return <PageHeader title="Edit Template" />;
}
