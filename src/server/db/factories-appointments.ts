import { APPOINTMENT_TIME_SLOTS, type AppointmentStatus } from "../../shared/constants";
import type { Db } from "./client";
import { appointments } from "./schema/appointments";
import { storedPhone } from "../../shared/phone";

// Appointments for the demo seed and the tests. Written straight to the table so a test can place one in the
// past or give it timestamps; the HTTP route is what tests use when they test creation itself.

export type AppointmentFixture = typeof appointments.$inferSelect;

let sequence = 0;

const SAMPLE_TITLES = ["Test drive", "Trade-in appraisal", "Financing review", "Vehicle delivery", "Follow-up visit"];

export async function makeAppointment(
  db: Db,
  values: {
    dealershipId: string;
    /** The user it belongs to: createdBy and assignedTo (part 1 §6). */
    userId: string;
    date: string;
    time?: string;
    title?: string;
    firstName?: string;
    lastName?: string;
    email?: string | null;
    phone?: string | null;
    description?: string | null;
    duration?: number;
    status?: AppointmentStatus;
    arrivedAt?: Date | null;
    completedAt?: Date | null;
    actualDuration?: number | null;
    leadId?: string | null;
    createdAt?: Date;
  },
): Promise<AppointmentFixture> {
  const n = ++sequence;
  const { userId, ...rest } = values;
  const [row] = await db
    .insert(appointments)
    .values({
      title: SAMPLE_TITLES[n % SAMPLE_TITLES.length]!,
      firstName: "Jordan",
      lastName: `Customer${n}`,
      time: APPOINTMENT_TIME_SLOTS[n % APPOINTMENT_TIME_SLOTS.length]!,
      ...rest,
      // Stored as the app stores a typed number (E.164, decision 205); a value that is not one is kept as given.
      phone: rest.phone ? (storedPhone(rest.phone) ?? rest.phone) : rest.phone,
      createdBy: userId,
      assignedTo: userId,
    })
    .returning();
  if (!row) throw new Error("appointment insert returned nothing");
  return row;
}
