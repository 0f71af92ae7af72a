import type { ComponentType } from "react";
import type { AuthMode, AuthModeProps } from "./modes";
import { LoginForm } from "./LoginForm";
import { RegisterForm } from "./RegisterForm";
import { VerifyEmailForm } from "./VerifyEmailForm";

/** One component per /auth mode. The team area adds "verify" (and two-factor) here. */
export const authModes: Record<AuthMode, ComponentType<AuthModeProps>> = {
  login: LoginForm,
  register: RegisterForm,
  verify: VerifyEmailForm,
};
