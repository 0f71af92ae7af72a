import { sql, type SQL } from "drizzle-orm";
import { rolesThatCan } from "../../shared/permissions";
import type { Viewer } from "../auth/tenancy";
import { roleAmongSql, roleCan, type Asker, type Column, type SqlAsker } from "./asker";

// Who may open an appointment (part 1 §6, decision 020): front desk and management every appointment of their
// dealership; a sales rep the ones assigned to them or made by them. The one statement of that rule, in memory and as
// SQL (access/matrix.test.ts proves the forms agree).

/** What of an appointment decides who may open it. */
export interface AppointmentOwnership {
  dealershipId: string;
  assignedTo: string | null;
  createdBy: string | null;
}

export interface AppointmentColumns {
  dealershipId: Column;
  assignedTo: Column;
  createdBy: Column;
}

export function seesEveryAppointment(role: Asker["role"] | null | undefined): boolean {
  return roleCan(role, "seeAllAppointments");
}

/** Whether the appointment is the user's own: assigned to them or made by them. */
export function ownsAppointment(userId: string, appointment: Omit<AppointmentOwnership, "dealershipId">): boolean {
  return appointment.assignedTo === userId || appointment.createdBy === userId;
}

/** The rule without the dealership, for a caller that matched the asker to the appointment's dealership (the socket). */
export function opensAppointment(asker: Asker, appointment: Omit<AppointmentOwnership, "dealershipId">): boolean {
  return seesEveryAppointment(asker.role) || ownsAppointment(asker.userId, appointment);
}

export function mayOpenAppointment(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, appointment: AppointmentOwnership): boolean {
  return appointment.dealershipId === viewer.dealershipId && opensAppointment(viewer, appointment);
}

/** ownsAppointment as SQL ("my appointments", whatever the role). */
export function ownAppointmentSql(userId: string | Column, appointment: Omit<AppointmentColumns, "dealershipId">): SQL {
  return sql`(${appointment.assignedTo} = ${userId} or ${appointment.createdBy} = ${userId})`;
}

/** opensAppointment as SQL; the role may be SQL (NULL opens nothing). */
export function openAppointmentSql(asker: SqlAsker, appointment: Omit<AppointmentColumns, "dealershipId">): SQL {
  const own = ownAppointmentSql(asker.userId, appointment);
  if (typeof asker.role === "string") return seesEveryAppointment(asker.role) ? sql`true` : own;
  return sql`(${asker.role} is not null and (${roleAmongSql(asker.role, rolesThatCan("seeAllAppointments"))} or ${own}))`;
}

/** mayOpenAppointment as SQL, for a viewer known before the query. */
export function mayOpenAppointmentSql(viewer: Pick<Viewer, "userId" | "dealershipId" | "role">, appointment: AppointmentColumns): SQL {
  const inDealership = sql`${appointment.dealershipId} = ${viewer.dealershipId}`;
  return seesEveryAppointment(viewer.role) ? inDealership : sql`(${inDealership} and ${ownAppointmentSql(viewer.userId, appointment)})`;
}
