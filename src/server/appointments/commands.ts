import type { AppointmentStatus } from "../../shared/constants";
import type { AppointmentInput } from "../../shared/schemas/appointment";
import { actorIdOf, type Viewer, writeInDealership } from "../auth/tenancy";
import type { Db } from "../db/client";
import { publish } from "../events/outbox";
import { badRequest } from "../http/errors";
import { lockVisibleLead } from "../leads/queries";
import { appointmentSnapshot, appointmentWithUser, createAppointment, setAppointmentStatus, type AppointmentWithUser } from "./queries";

// The appointments' changes (issue 25): each is the scoped write and its one domain event in one transaction that
// holds the dealership (decision 176). A status set to what it already is writes nothing and publishes nothing.

/**
 * Schedules an appointment (appointment.created). Its lead must be one the viewer may see (a sales rep cannot
 * schedule onto a colleague's client), locked until the appointment commits; otherwise the 400 naming leadId.
 */
export function scheduleAppointment(db: Db, access: Viewer, input: AppointmentInput): Promise<AppointmentWithUser | undefined> {
  return writeInDealership(db, access, async (tx) => {
    if (input.leadId && !(await lockVisibleLead(tx, access, input.leadId))) {
      throw badRequest("leadId: Lead not found in this dealership", { leadId: "Lead not found in this dealership" });
    }
    const created = await createAppointment(tx, access, input);
    await publish(tx, {
      type: "appointment.created",
      dealershipId: access.dealershipId,
      actorId: actorIdOf(access),
      payload: { appointment: appointmentSnapshot(created) },
    });
    return appointmentWithUser(tx, access, created.id);
  });
}

/** Sets an appointment's status (appointment.status_changed when it changes); undefined when not found. */
export function changeAppointmentStatus(db: Db, viewer: Viewer, id: string, status: AppointmentStatus): Promise<AppointmentWithUser | undefined> {
  return writeInDealership(db, viewer, async (tx) => {
    const updated = await setAppointmentStatus(tx, viewer, id, status, new Date());
    if (!updated) return undefined;
    if (updated.row.status !== updated.previousStatus) {
      await publish(tx, {
        type: "appointment.status_changed",
        dealershipId: viewer.dealershipId,
        actorId: actorIdOf(viewer),
        payload: { appointment: appointmentSnapshot(updated.row), previousStatus: updated.previousStatus },
      });
    }
    return appointmentWithUser(tx, viewer, id);
  });
}
