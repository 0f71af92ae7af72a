import { ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { EmptyState } from "./page-header";
import { Button } from "./ui/button";
import { Card } from "./ui/card";

/** A page the person's role may not open: "Access Denied", why, and (with `goBack`) a Go Back button. */
export function AccessDenied({ children, goBack = false }: { children: ReactNode; goBack?: boolean }) {
  const navigate = useNavigate();
  return (
    <Card className="mx-auto mt-4 max-w-xl">
      <EmptyState
        icon={<ShieldAlert />}
        title="Access Denied"
        action={
          goBack && (
            <Button variant="outline" onClick={() => void navigate(-1)}>
              Go Back
            </Button>
          )
        }
      >
        {children}
      </EmptyState>
    </Card>
  );
}
