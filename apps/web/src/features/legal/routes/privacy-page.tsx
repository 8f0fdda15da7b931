import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';

export function PrivacyPage() {
  return (
    <AuthCard
      title="Privacy Policy"
      subtitle="How Herald handles your account, contact and message data."
      footer={<TextLink to="/signup">Back to sign up</TextLink>}
    />
  );
}
