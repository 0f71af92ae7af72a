import { KeyRound, Plus, RotateCw, Trash2, Webhook as WebhookIcon } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { DEALERSHIP_ROLES, type DealershipRole } from "../../shared/constants";
import type { Webhook } from "../../shared/schemas/responses/integrations";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { ShownOnceDialog } from "../components/shown-once-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useApiTokens, useCreateToken, useCreateWebhook, useDeleteWebhook, useDeliveries, useRedeliver, useRevokeToken, useUpdateWebhook, useWebhooks } from "./api";

// The admin panel's API & Webhooks tab (issue 28; decisions 225, 227): management's API tokens (the token shown
// once) and webhooks (the secret shown once), each webhook's last delivery, its deliveries and Send again.

const ROLE_LABELS: Record<DealershipRole, string> = { sales: "Sales", frontDesk: "Front desk", management: "Management" };

export function ApiWebhooksTab({ dealershipId }: { dealershipId: string }) {
  const [shown, setShown] = useState<{ title: string; value: string; hint: string } | null>(null);
  return (
    <div className="grid gap-4">
      <TokensCard dealershipId={dealershipId} onCreated={(name, token) => setShown({ title: `API token ${name}`, value: token, hint: "Send it as Authorization: Bearer with each request." })} />
      <WebhooksCard dealershipId={dealershipId} onCreated={(url, secret) => setShown({ title: `Signing secret for ${url}`, value: secret, hint: "Verify each delivery's webhook-signature with it (Standard Webhooks)." })} />
      {shown && <ShownOnceDialog {...shown} onClose={() => setShown(null)} />}
    </div>
  );
}

function TokensCard({ dealershipId, onCreated }: { dealershipId: string; onCreated: (name: string, token: string) => void }) {
  const tokens = useApiTokens(dealershipId);
  const create = useCreateToken(dealershipId);
  const revoke = useRevokeToken(dealershipId);
  const [name, setName] = useState("");
  const [role, setRole] = useState<DealershipRole>("frontDesk");
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const roleId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { name, role },
      {
        onSuccess: (answer) => {
          onCreated(answer.name, answer.token);
          setName("");
          setError(null);
        },
        onError: (failure) => setError(serverMessage(failure, "The token could not be created")),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>API tokens</CardTitle>
        <CardDescription>
          Your website, DMS or reporting tools call this dealership's API with a token. A token acts with its role, in this dealership only.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="grid min-w-0 flex-1 gap-1.5">
            <Label htmlFor={nameId}>New token name</Label>
            <Input
              id={nameId}
              value={name}
              maxLength={100}
              placeholder="Website, DMS, reporting..."
              onChange={(event) => setName(event.target.value)}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? `${nameId}-error` : undefined}
            />
            {error && (
              <p id={`${nameId}-error`} className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={roleId}>Role</Label>
            <select id={roleId} className="h-9 rounded-md border bg-card px-2 text-sm" value={role} onChange={(event) => setRole(event.target.value as DealershipRole)}>
              {DEALERSHIP_ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={create.isPending}>
            <Plus />
            {create.isPending ? "Creating..." : "Create token"}
          </Button>
        </form>
        {tokens.isPending ? (
          <Skeleton className="h-20 rounded-lg" />
        ) : (tokens.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No API tokens yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="API tokens">
            {(tokens.data ?? []).map((token) => (
              <li key={token.id} className="flex flex-col gap-2 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="flex min-w-0 items-center gap-2 font-medium">
                    <KeyRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="min-w-0 break-words">{token.name}</span>
                    <Badge variant="outline">{ROLE_LABELS[token.role]}</Badge>
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Created {new Date(token.createdAt).toLocaleDateString()}
                    {token.lastUsedAt ? ` · last used ${new Date(token.lastUsedAt).toLocaleString()}` : " · not used yet"}
                    {token.expiresAt ? ` · expires ${new Date(token.expiresAt).toLocaleDateString()}` : ""}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="self-start sm:self-auto"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => {
                    if (!window.confirm(`Revoke "${token.name}"? Requests with it are refused from now on.`)) return;
                    revoke.mutate(token.id, {
                      onSuccess: () => toast({ title: "Token revoked", variant: "success" }),
                      onError: (failure) => toast({ title: "Revoke failed", description: serverMessage(failure, "Try again"), variant: "destructive" }),
                    });
                  }}
                >
                  <Trash2 />
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function WebhooksCard({ dealershipId, onCreated }: { dealershipId: string; onCreated: (url: string, secret: string) => void }) {
  const hooks = useWebhooks(dealershipId);
  const create = useCreateWebhook(dealershipId);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState("*");
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Webhook | null>(null);
  const urlId = useId();
  const eventsId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const list = events
      .split(/[\s,]+/)
      .map((e) => e.trim())
      .filter(Boolean);
    create.mutate(
      { url, events: list },
      {
        onSuccess: (answer) => {
          onCreated(answer.url, answer.secret);
          setUrl("");
          setError(null);
        },
        onError: (failure) => setError(serverMessage(failure, "The webhook could not be added")),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>Showroom posts each event you choose to your endpoint, signed, and retries for a day when it fails.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={submit} className="grid gap-2 sm:grid-cols-[1fr_14rem_auto] sm:items-end">
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={urlId}>Endpoint URL</Label>
            <Input
              id={urlId}
              value={url}
              type="url"
              placeholder="https://dms.example.com/showroom"
              onChange={(event) => setUrl(event.target.value)}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? `${urlId}-error` : undefined}
            />
          </div>
          <div className="grid min-w-0 gap-1.5">
            <Label htmlFor={eventsId}>Events (* for all)</Label>
            <Input id={eventsId} value={events} placeholder="lead.created, appointment.created" onChange={(event) => setEvents(event.target.value)} />
          </div>
          <Button type="submit" disabled={create.isPending}>
            <Plus />
            {create.isPending ? "Adding..." : "Add webhook"}
          </Button>
          {error && (
            <p id={`${urlId}-error`} className="text-sm text-destructive sm:col-span-3">
              {error}
            </p>
          )}
        </form>
        {hooks.isPending ? (
          <Skeleton className="h-20 rounded-lg" />
        ) : (hooks.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">No webhooks yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Webhooks">
            {(hooks.data ?? []).map((hook) => (
              <WebhookRow key={hook.id} dealershipId={dealershipId} hook={hook} onOpen={() => setOpen(hook)} />
            ))}
          </ul>
        )}
      </CardContent>
      {open && <DeliveriesDialog dealershipId={dealershipId} hook={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}

function WebhookRow({ dealershipId, hook, onOpen }: { dealershipId: string; hook: Webhook; onOpen: () => void }) {
  const update = useUpdateWebhook(dealershipId);
  const remove = useDeleteWebhook(dealershipId);
  const last = hook.lastDelivery;
  return (
    <li className="flex flex-col gap-2 rounded-lg border p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex min-w-0 items-center gap-2 font-medium">
          <WebhookIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="min-w-0 break-all">{hook.url}</span>
        </p>
        <p className="break-words text-xs text-muted-foreground">Events: {hook.events.join(", ")}</p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          {hook.active ? <Badge variant="success">On</Badge> : <Badge variant="destructive">Off</Badge>}
          {hook.disabledReason && <span className="text-destructive">{hook.disabledReason}</span>}
          {last ? (
            <span>
              Last delivery: {last.status === "succeeded" ? "delivered" : last.status === "failed" ? "failed" : "retrying"}
              {last.lastStatusCode !== null ? ` (${last.lastStatusCode})` : ""} · {new Date(last.createdAt).toLocaleString()}
            </span>
          ) : (
            <span>No deliveries yet</span>
          )}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onOpen} aria-label={`Deliveries of ${hook.url}`}>
          Deliveries
        </Button>
        <Button variant="outline" size="sm" onClick={() => update.mutate({ id: hook.id, change: { active: !hook.active } })} aria-label={`${hook.active ? "Turn off" : "Turn on"} ${hook.url}`}>
          {hook.active ? "Turn off" : "Turn on"}
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Remove ${hook.url}`}
          onClick={() => {
            if (!window.confirm(`Remove the webhook to ${hook.url}?`)) return;
            remove.mutate(hook.id, { onError: (failure) => toast({ title: "Remove failed", description: serverMessage(failure, "Try again"), variant: "destructive" }) });
          }}
        >
          <Trash2 />
          Remove
        </Button>
      </div>
    </li>
  );
}

function DeliveriesDialog({ dealershipId, hook, onClose }: { dealershipId: string; hook: Webhook; onClose: () => void }) {
  const deliveries = useDeliveries(dealershipId, hook.id);
  const redeliver = useRedeliver(dealershipId, hook.id);
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Deliveries</DialogTitle>
          <DialogDescription className="break-all">{hook.url}</DialogDescription>
        </DialogHeader>
        {deliveries.isPending ? (
          <Skeleton className="h-20 rounded-lg" />
        ) : (deliveries.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Deliveries">
            {(deliveries.data ?? []).map((delivery) => (
              <li key={delivery.id} className="flex flex-col gap-1 rounded-lg border p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium">
                    {delivery.eventType} · {new Date(delivery.createdAt).toLocaleString()}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"}
                    {delivery.lastStatusCode !== null ? ` · answered ${delivery.lastStatusCode}` : ""}
                    {delivery.nextAttemptAt ? ` · next try ${new Date(delivery.nextAttemptAt).toLocaleString()}` : ""}
                  </p>
                  {delivery.status !== "succeeded" && delivery.lastResponse && <p className="break-all text-xs text-muted-foreground">{delivery.lastResponse.slice(0, 200)}</p>}
                </div>
                <div className="flex items-center gap-2">
                  <Badge variant={delivery.status === "succeeded" ? "success" : delivery.status === "failed" ? "destructive" : "warning"}>
                    {delivery.status === "succeeded" ? "Delivered" : delivery.status === "failed" ? "Failed" : "Retrying"}
                  </Badge>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={!hook.active || redeliver.isPending}
                    onClick={() =>
                      redeliver.mutate(delivery.id, {
                        onSuccess: () => toast({ title: "Sending again", variant: "success" }),
                        onError: (failure) => toast({ title: "Could not send again", description: serverMessage(failure, "Try again"), variant: "destructive" }),
                      })
                    }
                  >
                    <RotateCw />
                    Send again
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
