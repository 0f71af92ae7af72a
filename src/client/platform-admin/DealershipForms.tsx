import { Building2, Save, Trash2 } from "lucide-react";
import { useState } from "react";
import { dealershipCreateSchema, dealershipDetailsSchema } from "../../shared/schemas/platform";
import type { PlatformDealership } from "../../shared/schemas/responses/platform";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Spinner } from "../components/ui/spinner";
import { useCreateDealership, useDeleteDealership, useUpdateDealership } from "./api";
import { ConfirmDialog } from "./parts";
import { formatPhone } from "../../shared/phone";

// The dealership forms (part 2 §2 "Add Dealership" and the Manage dialog's Details; §5: a name, and on creation the
// first admin's e-mail, first and last name).

const EMPTY_CREATE = { name: "", address: "", phone: "", email: "", website: "", adminEmail: "", adminFirstName: "", adminLastName: "" };

/** "Add Dealership": the dealership and its first manager, who is invited by e-mail. */
export function CreateDealershipDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateDealership();
  const form = useZodForm(dealershipCreateSchema, { defaultValues: EMPTY_CREATE });
  const { errors } = form.formState;

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) form.reset(EMPTY_CREATE);
  }

  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync(values);
      close(false);
    } catch (error) {
      applyServerFieldErrors(form, error);
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Add Dealership</DialogTitle>
          <DialogDescription>The dealership's admin gets an e-mail invitation to join it as Management.</DialogDescription>
        </DialogHeader>
        <form id="create-dealership-form" className="grid gap-4" noValidate onSubmit={(e) => void submit(e)}>
          <FormField label="Dealership name" required error={errors.name?.message}>
            <Input id="dealership-name" autoComplete="off" placeholder="Northside Motors" {...form.register("name")} />
          </FormField>
          <FormField label="Address" error={errors.address?.message}>
            <Input id="dealership-address" autoComplete="off" placeholder="100 King St W, Toronto" {...form.register("address")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Phone" error={errors.phone?.message}>
              <PhoneInput id="dealership-phone" autoComplete="off" registration={form.register("phone")} />
            </FormField>
            <FormField label="Dealership email" error={errors.email?.message}>
              <Input id="dealership-email" type="email" inputMode="email" autoComplete="off" placeholder="sales@dealership.com" {...form.register("email")} />
            </FormField>
          </div>
          <FormField label="Website" error={errors.website?.message}>
            <Input id="dealership-website" inputMode="url" autoComplete="off" placeholder="https://dealership.com" {...form.register("website")} />
          </FormField>
          <fieldset className="grid gap-4 rounded-lg border p-4">
            <legend className="px-1 text-sm font-semibold">Dealership admin</legend>
            <FormField label="Admin email" required error={errors.adminEmail?.message}>
              <Input id="dealership-admin-email" type="email" inputMode="email" autoComplete="off" placeholder="manager@dealership.com" {...form.register("adminEmail")} />
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Admin first name" required error={errors.adminFirstName?.message}>
                <Input id="dealership-admin-first-name" autoComplete="off" {...form.register("adminFirstName")} />
              </FormField>
              <FormField label="Admin last name" required error={errors.adminLastName?.message}>
                <Input id="dealership-admin-last-name" autoComplete="off" {...form.register("adminLastName")} />
              </FormField>
            </div>
          </fieldset>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" form="create-dealership-form" disabled={create.isPending}>
            {create.isPending ? <Spinner /> : <Building2 aria-hidden="true" />}
            Create Dealership
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The Manage dialog's Details tab: edit, or delete with confirmation. */
export function DealershipDetails({ dealership, onDeleted }: { dealership: PlatformDealership; onDeleted: () => void }) {
  const update = useUpdateDealership(dealership.id);
  const remove = useDeleteDealership();
  const [confirming, setConfirming] = useState(false);
  const form = useZodForm(dealershipDetailsSchema, {
    defaultValues: {
      name: dealership.name,
      address: dealership.address ?? "",
      phone: formatPhone(dealership.phone),
      email: dealership.email ?? "",
      website: dealership.website ?? "",
    },
  });
  const { errors, isDirty } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      form.reset({ name: saved.name, address: saved.address ?? "", phone: formatPhone(saved.phone), email: saved.email ?? "", website: saved.website ?? "" });
    } catch (error) {
      applyServerFieldErrors(form, error);
    }
  });

  return (
    <div className="grid gap-5">
      <form className="grid gap-4" noValidate onSubmit={(e) => void submit(e)} aria-label="Dealership details">
        <FormField label="Dealership name" required error={errors.name?.message}>
          <Input id="manage-name" autoComplete="off" {...form.register("name")} />
        </FormField>
        <FormField label="Address" error={errors.address?.message}>
          <Input id="manage-address" autoComplete="off" {...form.register("address")} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Phone" error={errors.phone?.message}>
            <PhoneInput id="manage-phone" autoComplete="off" registration={form.register("phone")} />
          </FormField>
          <FormField label="Dealership email" error={errors.email?.message}>
            <Input id="manage-email" type="email" inputMode="email" autoComplete="off" {...form.register("email")} />
          </FormField>
        </div>
        <FormField label="Website" error={errors.website?.message}>
          <Input id="manage-website" inputMode="url" autoComplete="off" {...form.register("website")} />
        </FormField>
        <div className="flex flex-wrap-reverse justify-between gap-2">
          <Button type="button" variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" /> Delete Dealership
          </Button>
          <Button type="submit" disabled={update.isPending || !isDirty}>
            {update.isPending ? <Spinner /> : <Save aria-hidden="true" />}
            Save Changes
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title="Delete Dealership"
        confirmLabel="Delete Dealership"
        pending={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(dealership, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted();
            },
          })
        }
      >
        <p>
          Delete {dealership.name}? This action cannot be undone. Every user is removed from the dealership and loses access immediately;
          removing a user returns their claimed leads to unclaimed.
        </p>
        <p>Pending invitations are withdrawn. The dealership's records are kept, but nobody can open them any more.</p>
      </ConfirmDialog>
    </div>
  );
}
