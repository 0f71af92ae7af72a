import { z } from "zod";
import { APPOINTMENT_STATUSES } from "../../constants";
import { calendarFeedScopes } from "../appointment";
import { calendarDate, entityId, slotTime, timestamp } from "./fields";

// What the appointment and calendar routes answer (src/server/appointments/routes.ts; decision 053). The request
// schemas stay in appointment.ts.

/** An appointment as the API answers it (part 1 §3: read responses carry assignedToUser). */
export const appointmentSchema = z.strictObject({
  id: entityId,
  title: z.string(),
  leadId: entityId.nullable(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  description: z.string().nullable(),
  date: calendarDate,
  time: slotTime,
  duration: z.number().int().positive(),
  status: z.enum(APPOINTMENT_STATUSES),
  arrivedAt: timestamp.nullable(),
  completedAt: timestamp.nullable(),
  /** Whole minutes from arrival to completion (decision 024). */
  actualDuration: z.number().int().nonnegative().nullable(),
  createdBy: entityId.nullable(),
  assignedTo: entityId.nullable(),
  dealershipId: entityId,
  notificationSent: z.boolean(),
  createdAt: timestamp,
  assignedToUser: z.strictObject({ firstName: z.string(), lastName: z.string() }).nullable(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const appointmentListSchema = z.array(appointmentSchema);

/** A day of the month picker with the number of appointments the user can see on it. */
export const appointmentDaySchema = z.strictObject({ date: calendarDate, count: z.number().int().positive() });
export type AppointmentDay = z.infer<typeof appointmentDaySchema>;

/** The user's calendar subscription in a dealership; the secret URL is only ever in the answer that creates it. */
export const calendarFeedInfoSchema = z.strictObject({
  exists: z.boolean(),
  scope: z.enum(calendarFeedScopes).nullable(),
  createdAt: timestamp.nullable(),
  lastFetchedAt: timestamp.nullable(),
  /** Whether the user's role may subscribe to the whole dealership's appointments. */
  canChooseDealership: z.boolean(),
});
export type CalendarFeedInfo = z.infer<typeof calendarFeedInfoSchema>;

export const calendarFeedCreatedSchema = z.strictObject({
  scope: z.enum(calendarFeedScopes),
  url: z.url({ protocol: /^https?$/ }),
  webcalUrl: z.url({ protocol: /^webcal$/ }),
  createdAt: timestamp,
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;

export const responses = {
  "POST /api/dealerships/:id/appointments": appointmentSchema,
  "GET /api/dealerships/:id/appointments": appointmentListSchema,
  "GET /api/dealerships/:id/appointments/days": z.array(appointmentDaySchema),
  "PATCH /api/appointments/:id/status": appointmentSchema,
  /** A lead's appointments (decision 022). */
  "GET /api/appointments": appointmentListSchema,
  "GET /api/dealerships/:id/calendar-feed": calendarFeedInfoSchema,
  "POST /api/dealerships/:id/calendar-feed": calendarFeedCreatedSchema,
} as const satisfies Record<string, z.ZodType>;
