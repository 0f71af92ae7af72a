import { Camera } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { AVATAR_MAX_BYTES, FILE_TOO_LARGE, INVALID_FILE_TYPE } from "../../shared/schemas/profile";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { Avatar } from "../components/ui/avatar";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Spinner } from "../components/ui/spinner";
import { toast } from "../lib/toast";
import { useUploadAvatar } from "./api";

/** Profile Picture (part 2 §2): the picture or initials, "Change Photo", a local preview while it uploads. */
export function ProfilePictureCard({ user }: { user: CurrentUser }) {
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const upload = useUploadAvatar();

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(file: File | undefined) {
    if (!file) return;
    // part 2 §5: the picker takes any image; the server decides what it really is.
    if (!file.type.startsWith("image/")) {
      toast({ title: "Invalid File Type", description: INVALID_FILE_TYPE, variant: "destructive" });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      toast({ title: "File Too Large", description: FILE_TOO_LARGE, variant: "destructive" });
      return;
    }
    const local = URL.createObjectURL(file);
    setPreview(local);
    upload.mutate(file, { onSettled: () => setPreview(null) });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Picture</CardTitle>
        <CardDescription>Shown in the header and to your team.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-center gap-4 sm:flex-row sm:items-center">
        <Avatar person={user} src={preview} className="size-24 text-2xl" />
        <div className="flex flex-col items-center gap-2 sm:items-start">
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="avatar-input"
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
          <Button variant="outline" onClick={() => input.current?.click()} disabled={upload.isPending}>
            {upload.isPending ? <Spinner /> : <Camera aria-hidden="true" />}
            {upload.isPending ? "Uploading..." : "Change Photo"}
          </Button>
          <p className="text-xs text-muted-foreground">PNG, JPG up to 5MB</p>
        </div>
      </CardContent>
    </Card>
  );
}
