import { useId, useState, type FormEvent } from "react";
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { Skeleton } from "../components/ui/skeleton";
import { useLostReasons } from "./lost-reasons-api";

/**
 * Asks why a lead was lost before it is moved to Lost (decision 202): one of the dealership's reasons, as radio
 * buttons (arrow keys move, Enter confirms). The server refuses the move without one, so this is the only way there.
 */
export function LostReasonDialog({
  dealershipId,
  leadName,
  open,
  pending,
  onCancel,
  onConfirm,
}: {
  dealershipId: string;
  leadName: string;
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const reasons = useLostReasons(dealershipId, open);
  const [chosen, setChosen] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const ids = { group: useId(), error: useId() };
  const close = () => {
    setChosen(null);
    setMissing(false);
    onCancel();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setMissing(true);
      return;
    }
    onConfirm(chosen);
    setChosen(null);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
    >
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4" data-testid="lost-reason-form">
          <DialogHeader>
            <DialogTitle>Why was this lead lost?</DialogTitle>
            <DialogDescription className="break-words">{leadName} moves to Lost with the reason you choose.</DialogDescription>
          </DialogHeader>
          {!reasons.data ? (
            <Skeleton className="h-40 rounded-lg" />
          ) : (
            <fieldset className="grid gap-2" aria-describedby={missing ? ids.error : undefined}>
              <legend className="sr-only">Lost reason</legend>
              {reasons.data.map((reason) => (
                <label key={reason} className="flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5">
                  <input
                    type="radio"
                    name={ids.group}
                    value={reason}
                    checked={chosen === reason}
                    onChange={() => {
                      setChosen(reason);
                      setMissing(false);
                    }}
                    className="mt-0.5 size-4 shrink-0 accent-primary"
                  />
                  <span className="min-w-0 break-words">{reason}</span>
                </label>
              ))}
            </fieldset>
          )}
          {missing && (
            <p id={ids.error} role="alert" className="text-sm text-destructive">
              Choose why the lead was lost.
            </p>
          )}
          <DialogFormFooter onCancel={close} pending={pending} submitLabel="Mark as Lost" variant="destructive" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
