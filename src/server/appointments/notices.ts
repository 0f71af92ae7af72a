import { APPOINTMENT_STATUS_LABELS } from "../../shared/constants";
import type { DomainEvent, DomainEventType } from "../../shared/events";
import type { RealtimeEventType, RealtimeMessage } from "../../shared/realtime-messages";
import type { Notices } from "../events/notices";

// What the appointments' events say (decision 253): in the bell and by push, and on the socket.

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

const CALENDAR_URL = "/calendar";

function appointmentMessage(type: RealtimeEventType) {
  return (event: Event<"appointment.created" | "appointment.status_changed">, timestamp: string): RealtimeMessage => {
    const { appointment } = event.payload;
    return { type, data: { firstName: appointment.firstName, lastName: appointment.lastName, status: appointment.status, title: appointment.title, timestamp } };
  };
}

export const appointmentNotices: Notices = {
  "appointment.created": {
    bell: (event) => {
      const { appointment } = event.payload;
      return {
        type: "appointment_created",
        title: "New Appointment",
        message: `New appointment scheduled: ${appointment.title}`,
        url: CALENDAR_URL,
        leadId: appointment.leadId,
        // Front desk greets the customer; management sees the day's bookings.
        targetRoles: ["frontDesk", "management"],
        people: [appointment.assignedTo, appointment.createdBy],
      };
    },
    socket: appointmentMessage("appointment_created"),
  },
  "appointment.status_changed": {
    bell: (event) => {
      const { appointment } = event.payload;
      return {
        type: "appointment_status_changed",
        title: "Appointment Updated",
        message: `Appointment status changed to ${APPOINTMENT_STATUS_LABELS[appointment.status]}: ${appointment.title}`,
        url: CALENDAR_URL,
        leadId: appointment.leadId,
        targetRoles: ["management"],
        people: [appointment.assignedTo, appointment.createdBy],
      };
    },
    socket: appointmentMessage("appointment_status_changed"),
  },
};
