import { zodResolver } from "@hookform/resolvers/zod";
import * as React from "react";
import { useForm, type FieldValues, type Path, type Resolver, type UseFormProps, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { fieldErrors } from "../../lib/api";
import { onFirstInteraction } from "../../lib/first-interaction";
import { cn } from "../../lib/utils";
import { Label } from "./label";

// Forms: react-hook-form validated by the same zod schema the server uses (ARCHITECTURE invariant 3).
//   const form = useZodForm(loginSchema, { defaultValues: { email: "", password: "" } });
//   <form onSubmit={form.handleSubmit(submit)}>
//     <FormField label="Email" error={form.formState.errors.email?.message}>
//       <Input type="email" {...form.register("email")} />
//     </FormField>
// FormField gives the control an id, links the label and the error message, and sets aria-invalid.

/**
 * The schema, or a loader of it for a first screen that must not wait for zod (the sign-in form, issue 12): the
 * loader starts at the person's first touch, key or focus, and validation waits for it.
 *   const loadLoginSchema = () => import("../../shared/schemas/auth").then((m) => m.loginSchema);
 */
export type SchemaSource<S> = S | (() => Promise<S>);

export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: SchemaSource<S>,
  props?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver">,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const [lazy] = React.useState(() => (typeof schema === "function" ? lazyResolver(schema) : null));
  React.useEffect(() => (lazy ? onFirstInteraction(lazy.warm) : undefined), [lazy]);
  const resolver = lazy ? lazy.resolver : zodResolver(schema as never);
  return useForm<z.input<S>, unknown, z.output<S>>({ ...props, resolver: resolver as never });
}

function lazyResolver(load: () => Promise<unknown>) {
  let ready: Promise<Resolver> | null = null;
  const warm = () => (ready ??= load().then((schema) => zodResolver(schema as never) as Resolver));
  const resolver: Resolver = async (values, context, options) => (await warm())(values, context, options);
  return { resolver, warm: () => void warm() };
}

interface FormFieldProps {
  label: React.ReactNode;
  error?: string;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  /** One form control (Input, Textarea, SelectTrigger...). */
  children: React.ReactElement<Record<string, unknown>>;
}

export function FormField({ label, error, hint, required, className, children }: FormFieldProps) {
  const generated = React.useId();
  const id = (children.props.id as string | undefined) ?? generated;
  const messageId = `${id}-message`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? messageId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div data-slot="form-field" className={cn("grid content-start gap-2", className)}>
      <Label htmlFor={id} className={cn(error && "text-destructive")}>
        {label}
        {required && (
          <span aria-hidden="true" className="text-destructive">
            *
          </span>
        )}
      </Label>
      {React.cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && !error && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={messageId} role="alert" className="text-[13px] font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** Puts the server's per-field messages (400 {fields}) on the form's fields; answers whether there were any. */
export function applyServerFieldErrors<T extends FieldValues>(form: Pick<UseFormReturn<T>, "setError">, error: unknown): boolean {
  const fields = fieldErrors(error);
  const names = Object.keys(fields);
  for (const name of names) form.setError(name as Path<T>, { type: "server", message: fields[name] });
  return names.length > 0;
}
