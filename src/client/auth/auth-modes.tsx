import { lazy, type ComponentType } from "react";
import { LoginForm } from "./LoginForm";
import type { AuthMode, AuthModeProps } from "./modes";

// Login is drawn at once; the other modes (and their checks) download when someone opens them (issue 12).
const RegisterForm = lazy(() => import("./RegisterForm").then((m) => ({ default: m.RegisterForm })));
const VerifyEmailForm = lazy(() => import("./VerifyEmailForm").then((m) => ({ default: m.VerifyEmailForm })));
const TwoFactorForm = lazy(() => import("./TwoFactorForm").then((m) => ({ default: m.TwoFactorForm })));
const ForgotPasswordForm = lazy(() => import("./ForgotPasswordForm").then((m) => ({ default: m.ForgotPasswordForm })));

/** One component per /auth mode. The team area adds "verify" (and two-factor) here. AuthPage wraps them in Suspense. */
export const authModes: Record<AuthMode, ComponentType<AuthModeProps>> = {
  login: LoginForm,
  register: RegisterForm,
  verify: VerifyEmailForm,
  twoFactor: TwoFactorForm,
  forgot: ForgotPasswordForm,
};
