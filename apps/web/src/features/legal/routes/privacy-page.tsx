import { AuthCard } from '../../../components/auth-card';
import { TextLink } from '../../../components/text-link';
import { LegalText } from '../components/legal-text';

export function PrivacyPage() {
  return (
    <AuthCard
      title="Privacy Policy"
      subtitle="How Herald handles your account, contact and message data."
      footer={<TextLink to="/signup">Back to sign up</TextLink>}
    >
      <LegalText>
        <p>Herald stores only what it needs to run your broadcasts:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>your e-mail address;</li>
          <li>your password and PIN, stored only as salted hashes;</li>
          <li>the WhatsApp Business accounts and phone numbers you connect;</li>
          <li>the contacts you import or add, with the tags you give them;</li>
          <li>
            the templates and messages you send through Meta&apos;s WhatsApp Cloud API, and their delivery
            status.
          </li>
        </ul>
        <p>
          That is all. Messages go to Meta to be delivered, as WhatsApp requires; we do not sell or share your
          data with anyone else, and we do not use it for advertising.
        </p>
        <p>
          Your browser keeps your session tokens and your account list in local storage so that you stay
          signed in; signing out removes them.
        </p>
      </LegalText>
    </AuthCard>
  );
}
