import { useState } from "react";
import { cn, initialsOf } from "../../lib/utils";

interface AvatarPerson {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  profileImageUrl?: string | null;
}

/**
 * A round picture of a person, or their initials (part 2 §2: first letters of first and last name, else the e-mail's
 * first letter, else "U") when there is none or it fails to load.
 */
export function Avatar({ person, src, className }: { person: AvatarPerson | null | undefined; src?: string | null; className?: string }) {
  const url = src ?? person?.profileImageUrl ?? null;
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = url && failed !== url;
  return (
    <span className={cn("relative flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/10 font-semibold text-primary", className)}>
      {showImage ? (
        <img src={url} alt="" className="size-full object-cover" onError={() => setFailed(url)} data-testid="avatar-image" />
      ) : (
        <span aria-hidden="true">{initialsOf(person)}</span>
      )}
    </span>
  );
}
