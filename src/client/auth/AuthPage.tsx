import { CalendarCheck2, CarFront, Inbox, Users } from "lucide-react";
import { Suspense, useState } from "react";
import { useLocation } from "react-router";
import { useDocumentTitle } from "../components/page-header";
import { Brand } from "../components/shell/brand";
import { authModes } from "./auth-modes";
import { useInvitationLink } from "./invitation";
import { Spinner } from "../components/ui/spinner";
import { initialAuthState, type AuthState } from "./modes";

const highlights = [
  { icon: Inbox, title: "Every lead, claimed fast", text: "New enquiries land in one queue so the right rep picks them up in seconds." },
  { icon: CalendarCheck2, title: "Appointments that show up", text: "Book visits, track arrivals and keep the whole floor on the same calendar." },
  // Only what the product does (issue 12): test drives are booked and each demo taken out is logged.
  { icon: CarFront, title: "Test drives on record", text: "Book drives and see which demo is out, with whom, and since when." },
  { icon: Users, title: "Built for your whole team", text: "Sales, front desk and management each see what they need, across dealerships." },
];

/** /auth (part 1 §2.2): the sign-in screen with a brand panel on wide screens. */
export function AuthPage() {
  const location = useLocation();
  const [state, setState] = useState<AuthState>(() => initialAuthState(location.search, location.hash));
  const Mode = authModes[state.mode];
  useDocumentTitle(state.mode === "login" ? "Sign in" : "Create your account");
  const go = (next: Partial<AuthState>) => setState((s) => ({ ...s, ...next }));
  const checkingLink = useInvitationLink(state, go);

  return (
    <div className="flex min-h-dvh bg-background">
      <aside className="relative hidden w-[44%] max-w-2xl flex-col justify-between overflow-hidden bg-brand-ink p-12 text-white lg:flex">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 opacity-90"
          style={{
            background:
              "radial-gradient(60rem 40rem at -10% -10%, oklch(0.49 0.2 262 / 0.55), transparent 60%), radial-gradient(40rem 30rem at 110% 110%, oklch(0.6 0.17 240 / 0.35), transparent 60%)",
          }}
        />
        <Brand inverted className="relative" />
        <div className="relative max-w-md">
          <h1 className="text-4xl font-bold leading-[1.1] tracking-tight">The sales floor, organized.</h1>
          <p className="mt-4 text-lg text-white/75">Leads, appointments and test drives for every dealership you run — in one place.</p>
          <ul className="mt-10 grid gap-6">
            {highlights.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span>
                  <span className="block font-semibold">{title}</span>
                  <span className="mt-0.5 block text-sm text-white/70">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-white/55">© {new Date().getFullYear()} Showroom · Dealership CRM</p>
      </aside>

      <main className="flex flex-1 flex-col items-center px-5 py-8 sm:justify-center sm:px-8 sm:py-12">
        <Brand className="mb-8 self-start sm:self-center lg:hidden" />
        <div className="w-full max-w-[440px] sm:rounded-2xl sm:border sm:bg-card sm:p-8 sm:shadow-sm lg:max-w-[480px] lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none">
          {checkingLink ? (
            <div className="flex items-center justify-center gap-3 py-16 text-sm text-muted-foreground" aria-busy="true">
              <Spinner /> Checking your invitation...
            </div>
          ) : (
            <Suspense fallback={<ModeLoading />}>
              <Mode key={state.mode + (state.invitation ? ":invited" : "")} state={state} go={go} />
            </Suspense>
          )}
        </div>
      </main>
    </div>
  );
}

function ModeLoading() {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16 text-sm text-muted-foreground">
      <Spinner /> Loading...
    </div>
  );
}
