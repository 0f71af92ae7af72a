import { z } from "zod";

// The e-mail intake's settings (issue 14; decision 134), read with the rest of the environment by config.ts.

export interface IntakeConfig {
  /** INTAKE_SMTP_PORT: the SMTP listener's port; without it there is no e-mail intake. */
  smtpPort?: number | undefined;
  /** INTAKE_SMTP_HOST: its listen address (default 0.0.0.0). */
  smtpHost: string;
  /** INTAKE_DOMAIN: the domain of the intake addresses, leads+<mailbox>@INTAKE_DOMAIN (default: APP_URL's host name). */
  domain?: string | undefined;
  /**
   * REPLY_DOMAIN: the domain of the leads' reply addresses, reply+<token>@REPLY_DOMAIN, taken by the same listener
   * (issue 26, decision 228; default: the intake domain).
   */
  replyDomain?: string | undefined;
}

const domainName = z
  .string()
  .regex(/^[a-z0-9.-]+$/i, { message: "a domain name such as leads.example.com" })
  .optional()
  .or(z.literal("").transform(() => undefined));

const schema = z.object({
  INTAKE_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional().or(z.literal("").transform(() => undefined)),
  INTAKE_SMTP_HOST: z.string().default("0.0.0.0"),
  INTAKE_DOMAIN: domainName,
  REPLY_DOMAIN: domainName,
});

export function loadIntakeConfig(env: NodeJS.ProcessEnv): IntakeConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return { smtpPort: parsed.data.INTAKE_SMTP_PORT, smtpHost: parsed.data.INTAKE_SMTP_HOST, domain: parsed.data.INTAKE_DOMAIN?.toLowerCase(),
    replyDomain: parsed.data.REPLY_DOMAIN?.toLowerCase(),
  };
}

/** The domain intake addresses are shown with. */
export function intakeDomain(intake: IntakeConfig | undefined, appUrl: string): string {
  return intake?.domain ?? new URL(appUrl).hostname;
}

/** The domain of the leads' reply addresses (REPLY_DOMAIN, else the intake domain). */
export function replyDomain(intake: IntakeConfig | undefined, appUrl: string): string {
  return intake?.replyDomain ?? intakeDomain(intake, appUrl);
}
