import { useState } from "react";
import { useAuth } from "../auth/auth-provider";
import { PageHeader } from "../components/page-header";
import { ActiveSessionsCard } from "./ActiveSessionsCard";
import { DealershipAccessCard } from "./DealershipAccessCard";
import { ChangeEmailDialog } from "./EmailDialogs";
import { PersonalInformationCard } from "./PersonalInformationCard";
import { ProfilePictureCard } from "./ProfilePictureCard";
import { SecuritySettingsCard } from "./SecuritySettingsCard";
import { TwoFactorCard } from "./TwoFactorCard";

/** /profile (part 2 §2 Profile): the cards in the spec's order, the further card being Active sessions. */
export function ProfilePage() {
  const { user } = useAuth();
  // The new address being confirmed: the dialog lives here, so the card can start afresh when the e-mail changes.
  const [newEmail, setNewEmail] = useState<string | null>(null);
  if (!user) return null;
  return (
    <div className="mx-auto w-full min-w-0 max-w-3xl">
      <PageHeader title="Profile" description="Manage your account information and dealership memberships" />
      <div className="grid grid-cols-1 gap-5 lg:gap-6">
        <ProfilePictureCard user={user} />
        <PersonalInformationCard key={user.id + user.email} user={user} onEmailChange={setNewEmail} />
        <SecuritySettingsCard user={user} />
        <TwoFactorCard />
        <ActiveSessionsCard />
        <DealershipAccessCard />
      </div>
      <ChangeEmailDialog email={newEmail} twoFactorEnabled={user.twoFactorEnabled} onClose={() => setNewEmail(null)} />
    </div>
  );
}
