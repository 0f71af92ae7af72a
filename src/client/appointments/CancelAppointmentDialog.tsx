import { fullName } from "../../shared/format";
import type { Appointment } from "../../shared/schemas/responses/appointments";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { formatSlot, mediumDate } from "./format";

/**
 * Cancelling an appointment asks first (issue 12): the Cancel button sits next to Call, and one slip of a thumb
 * used to cancel a customer's visit.
 */
export function CancelAppointmentDialog({ appointment, onClose, onConfirm }: { appointment: Appointment | null; onClose: () => void; onConfirm: (appointment: Appointment) => void }) {
  return (
    <AlertDialog open={appointment !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        {appointment && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>Cancel {fullName(appointment)}'s appointment?</AlertDialogTitle>
              <AlertDialogDescription>
                {mediumDate(appointment.date)} at {formatSlot(appointment.time)}. It stays on the calendar as cancelled; you can set another status later.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Keep appointment</AlertDialogCancel>
              <AlertDialogAction className="bg-destructive text-destructive-foreground hover:bg-destructive/90" onClick={() => onConfirm(appointment)}>
                Cancel appointment
              </AlertDialogAction>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}
