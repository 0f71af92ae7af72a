import { LogOut, Monitor, Smartphone } from "lucide-react";
import { relativeTime } from "../../shared/format";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { useActiveSessions, useSignOutOtherSessions } from "./api";

const PHONES = /iPhone|iPad|Android/;

/** Active sessions (the profile's further card, issue 15): where the account is signed in, and a way out. */
export function ActiveSessionsCard() {
  const sessions = useActiveSessions();
  const signOut = useSignOutOtherSessions();
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  return (
    <Card>
      <CardHeader className="flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1.5">
          <CardTitle>Active Sessions</CardTitle>
          <CardDescription>Devices signed in to your account. Sign out any you don't recognise.</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => signOut.mutate()} disabled={signOut.isPending || others === 0}>
          {signOut.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
          Sign out other sessions
        </Button>
      </CardHeader>
      <CardContent>
        {sessions.isLoading ? (
          <div className="grid gap-3">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="active-sessions">
            {(sessions.data ?? []).map((session) => {
              const Icon = PHONES.test(session.device) ? Smartphone : Monitor;
              return (
                <li key={session.id} className="flex items-center gap-3 px-4 py-3">
                  <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium">{session.device}</p>
                    <p className="truncate text-xs text-muted-foreground">
                      {session.ipAddress ?? "Unknown address"} · {session.current ? "Active now" : `Last seen ${relativeTime(session.lastSeenAt).replace("Just now", "just now")}`}
                    </p>
                  </div>
                  {session.current && <Badge variant="primary">This device</Badge>}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
