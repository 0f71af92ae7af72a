import { KeyRound, Plus, RefreshCw, Trash2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { INTAKE_CREDENTIAL_NAME_MAX } from "../../shared/schemas/intake";
import type { IntakeCredential, IntakeCredentialWithSecret } from "../../shared/schemas/responses/intake";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { ShownOnceDialog } from "../components/shown-once-dialog";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { IntakeInstructions } from "./IntakeInstructions";
import { useCreateCredential, useIntakeCredentials, useIntakeDocuments, useRevokeCredential, useRotateCredential } from "./api";

// The admin panel's Lead intake card (issue 14; decisions 131-134): the credentials websites and lead providers send
// ADF with (created, rotated, revoked by management; the secret shown once), each one's intake e-mail address, and the
// last 20 documents received with their outcome.

export function LeadIntakeCard({ dealershipId }: { dealershipId: string }) {
  const credentials = useIntakeCredentials(dealershipId);
  const documents = useIntakeDocuments(dealershipId);
  const create = useCreateCredential(dealershipId);
  const rotate = useRotateCredential(dealershipId);
  const revoke = useRevokeCredential(dealershipId);
  const [shown, setShown] = useState<IntakeCredentialWithSecret | null>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const nameId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { name },
      {
        onSuccess: (answer) => {
          setShown(answer as IntakeCredentialWithSecret);
          setName("");
          setNameError(null);
        },
        onError: (error) => setNameError(serverMessage(error, "The credential could not be created")),
      },
    );
  }

  function onRotate(credential: IntakeCredential) {
    if (!window.confirm(`Rotate "${credential.name}"? Its current secret and e-mail address stop working at once.`)) return;
    rotate.mutate(credential.id, {
      onSuccess: (answer) => setShown(answer as IntakeCredentialWithSecret),
      onError: (error) => toast({ title: "Rotate failed", description: serverMessage(error, "Try again"), variant: "destructive" }),
    });
  }

  function onRevoke(credential: IntakeCredential) {
    if (!window.confirm(`Revoke "${credential.name}"? Documents sent with it are refused from now on.`)) return;
    revoke.mutate(credential.id, {
      onSuccess: (answer) => toast({ title: "Credential Revoked", description: (answer as { message: string }).message, variant: "success" }),
      onError: (error) => toast({ title: "Revoke failed", description: serverMessage(error, "Try again"), variant: "destructive" }),
    });
  }

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Lead intake</CardTitle>
          <CardDescription>
            Your website, your manufacturer's program and the marketplaces you list on can send their leads straight into New Leads, each
            with its provider as the source. Create a credential for each of them, then give them what the card below describes.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor={nameId}>New credential name</Label>
              <Input
                id={nameId}
                value={name}
                maxLength={INTAKE_CREDENTIAL_NAME_MAX}
                placeholder="Website, AutoTrader, OEM program..."
                onChange={(event) => setName(event.target.value)}
                aria-invalid={Boolean(nameError) || undefined}
                aria-describedby={nameError ? `${nameId}-error` : undefined}
              />
              {nameError && (
                <p id={`${nameId}-error`} className="text-sm text-destructive">
                  {nameError}
                </p>
              )}
            </div>
            <Button type="submit" disabled={create.isPending}>
              <Plus />
              {create.isPending ? "Creating..." : "Create credential"}
            </Button>
          </form>
          {credentials.isPending ? (
            <Skeleton className="h-20 rounded-lg" />
          ) : (credentials.data ?? []).length === 0 ? (
            <p className="text-sm text-muted-foreground">No credentials yet: create one for each website or provider that sends you leads.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Intake credentials">
              {(credentials.data ?? []).map((credential) => (
                <li key={credential.id} className="flex flex-col gap-2 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-medium">
                      <KeyRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                      {credential.name}
                      {credential.revokedAt && <Badge variant="destructive">Revoked</Badge>}
                    </p>
                    {credential.mailAddress && <p className="break-all text-sm text-muted-foreground">Leads by e-mail: {credential.mailAddress}</p>}
                    <p className="text-xs text-muted-foreground">
                      Created {new Date(credential.createdAt).toLocaleDateString()}
                      {credential.lastUsedAt ? ` · last used ${new Date(credential.lastUsedAt).toLocaleString()}` : " · not used yet"}
                    </p>
                  </div>
                  {!credential.revokedAt && (
                    <div className="flex gap-2">
                      <Button variant="outline" size="sm" onClick={() => onRotate(credential)} aria-label={`Rotate ${credential.name}`}>
                        <RefreshCw />
                        Rotate
                      </Button>
                      <Button variant="outline" size="sm" onClick={() => onRevoke(credential)} aria-label={`Revoke ${credential.name}`}>
                        <Trash2 />
                        Revoke
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <IntakeInstructions />
      <Card>
        <CardHeader>
          <CardTitle>Received documents</CardTitle>
          <CardDescription>The last 20 lead documents your providers sent, newest first, and what became of each.</CardDescription>
        </CardHeader>
        <CardContent>
          {documents.isPending ? (
            <Skeleton className="h-20 rounded-lg" />
          ) : (documents.data ?? []).length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing received yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Received documents">
              {(documents.data ?? []).map((doc) => (
                <li key={doc.id} className="flex flex-col gap-1 rounded-lg border p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium">
                      {new Date(doc.receivedAt).toLocaleString()} · {doc.channel === "email" ? "e-mail" : "HTTP"} · {doc.credentialName ?? "deleted credential"}
                    </p>
                    {/* An accepted document's text is what was left out of its leads (decision 181): a note, not an error. */}
                    {doc.error &&
                      (doc.outcome === "accepted" ? (
                        <p className="break-words text-muted-foreground" data-testid="intake-note">
                          <span className="font-medium text-foreground">Note:</span> {doc.error}
                        </p>
                      ) : (
                        <p className="break-words text-destructive">{doc.error}</p>
                      ))}
                  </div>
                  <Badge variant={doc.outcome === "accepted" ? "success" : "destructive"}>
                    {doc.outcome === "accepted" ? `Accepted: ${doc.leadsCreated} ${doc.leadsCreated === 1 ? "lead" : "leads"}` : "Rejected"}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {shown && (
        <ShownOnceDialog title={`Secret for ${shown.credential.name}`} value={shown.secret} hint={`Give it to ${shown.credential.name}'s provider with the instructions on this tab, separately from them: anyone with it can send you leads.`} onClose={() => setShown(null)}>
          {shown.credential.mailAddress && <p className="break-all text-sm">A provider that can only e-mail leads sends them to {shown.credential.mailAddress}.</p>}
        </ShownOnceDialog>
      )}
    </div>
  );
}
