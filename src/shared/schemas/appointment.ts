import { z } from "zod";
import { DEFAULT_BUSINESS_HOURS, slotProblem, type BusinessHours } from "../business-hours";
import { APPOINTMENT_STATUSES, DEFAULT_APPOINTMENT_DURATION, type AppointmentStatus } from "../constants";
import { EARLIEST_DATE, isCalendarDate, isIsoDate, LATEST_DATE } from "../dealership-clock";
import { optionalPhoneField } from "./lead";

// Appointment requests (spec part 1 §5 appointment form, §7 appointment calls). The schedule form and the server
// validate with these same objects. createdBy and assignedTo are never read from a body: the server takes them
// from the session (part 1 §6), so they are not in the schema and zod drops them.

/** Said when a date is well written but outside the range the app works in (decision 037). */
const DATE_RANGE = `between ${EARLIEST_DATE} and ${LATEST_DATE}`;

/** A YYYY-MM-DD query date (date, from, to): the message names the field, as the list queries' other messages do. */
const queryDate = (field: string) =>
  z
    .string()
    .refine(isCalendarDate, { message: `${field} must be YYYY-MM-DD` })
    .refine(isIsoDate, { message: `${field} must be ${DATE_RANGE}` });

const requiredText = (message: string, max = 100) => z.string({ message }).trim().min(1, { message }).max(max);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const appointmentEmailField = z
  .string()
  .trim()
  .toLowerCase()
  .nullish()
  .transform((v) => (v ? v : null))
  .pipe(z.email({ message: "Please enter a valid email" }).nullable());

/**
 * The fields of the schedule form; `today` is the dealership's local date (dates before it are refused) and `now` its
 * wall-clock time (HH:MM): a slot that has already begun today is refused too (issue 29: 9:00 was taken at 10:30).
 * `hours` are the dealership's business hours (decision 191): a closed day and a time outside the day's slots are
 * refused.
 */
export function appointmentInputSchema(today: string, now?: string, hours: BusinessHours = DEFAULT_BUSINESS_HOURS) {
  return z.object({
    title: requiredText("Title is required", 200),
    firstName: requiredText("First name is required"),
    lastName: requiredText("Last name is required"),
    email: appointmentEmailField,
    phone: optionalPhoneField,
    description: optionalText(5000),
    date: z
      .string({ message: "Date is required" })
      .trim()
      .min(1, { message: "Date is required" })
      .refine(isCalendarDate, { message: "Date must be a valid date (YYYY-MM-DD)" })
      .refine(isIsoDate, { message: `Date must be ${DATE_RANGE}` })
      .refine((d) => d >= today, { message: "Date cannot be in the past" }),
    time: z
      .string({ message: "Time is required" })
      .min(1, { message: "Time is required" })
      .regex(/^\d{2}:\d{2}$/, { message: "Please choose one of the available time slots" }),
    duration: z.coerce
      .number({ message: "Duration must be a number of minutes" })
      .int({ message: "Duration must be a whole number of minutes" })
      .min(15, { message: "Duration must be at least 15 minutes" })
      .max(480, { message: "Duration must be at most 480 minutes" })
      .default(DEFAULT_APPOINTMENT_DURATION),
    leadId: z
      .string()
      .trim()
      .max(64)
      .nullish()
      .transform((v) => (v ? v : null)),
  }).superRefine((v, ctx) => {
    const outside = slotProblem(v.date, v.time, hours);
    if (outside) ctx.addIssue({ code: "custom", path: [outside.field], message: outside.message });
    else if (now !== undefined && v.date === today && v.time < now) ctx.addIssue({ code: "custom", path: ["time"], message: "This time has already passed today" });
  });
}
export type AppointmentInput = z.infer<ReturnType<typeof appointmentInputSchema>>;

/** The schedule form's body as its route declares it: the handler checks it against the dealership's today. */
export const appointmentRequestSchema = appointmentInputSchema("");

/** Query of GET /api/dealerships/{id}/appointments/days (the month picker's markers), checked by its handler. */
export const appointmentDaysQuerySchema = z.object({ from: z.iso.date(), to: z.iso.date() });

/** Query of GET /api/appointments: a lead's appointments (decision 022). */
export const leadAppointmentsQuerySchema = z.object({ leadId: z.string({ message: "is required" }).min(1, { message: "is required" }) });

export const appointmentStatusSchema = z.object({
  status: z.enum(APPOINTMENT_STATUSES, {
    message: `Status must be one of: ${APPOINTMENT_STATUSES.join(", ")}`,
  }),
});

/** Query of GET /api/dealerships/{id}/appointments (decision 021). */
export const appointmentListQuerySchema = z.object({
  type: z.enum(["my", "today", "upcoming"], { message: "type must be my, today or upcoming" }).optional(),
  date: queryDate("date").optional(),
  from: queryDate("from").optional(),
  to: queryDate("to").optional(),
});

export const calendarFeedScopes = ["mine", "dealership"] as const;
export type CalendarFeedScope = (typeof calendarFeedScopes)[number];
export const calendarFeedRequestSchema = z.object({
  scope: z.enum(calendarFeedScopes, { message: "scope must be mine or dealership" }).default("mine"),
});

/** An appointment as the API answers it (read responses carry assignedToUser, part 1 §3). */
export interface Appointment {
  id: string;
  title: string;
  leadId: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  date: string;
  time: string;
  duration: number;
  status: AppointmentStatus;
  arrivedAt: string | null;
  completedAt: string | null;
  actualDuration: number | null;
  createdBy: string | null;
  assignedTo: string | null;
  dealershipId: string;
  notificationSent: boolean;
  createdAt: string;
  assignedToUser: { firstName: string; lastName: string } | null;
}

/** A day of the month picker with the number of appointments the user can see on it. */
export interface AppointmentDay {
  date: string;
  count: number;
}

export interface CalendarFeedInfo {
  /** Whether the user has a feed in this dealership; the secret URL is only shown when it is created. */
  exists: boolean;
  scope: CalendarFeedScope | null;
  createdAt: string | null;
  lastFetchedAt: string | null;
  /** Whether the user's role may subscribe to the whole dealership's appointments. */
  canChooseDealership: boolean;
}

export interface CalendarFeedCreated {
  scope: CalendarFeedScope;
  url: string;
  webcalUrl: string;
  createdAt: string;
}
