import type { DomainEvent, DomainEventType, TestDriveSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
import type { RealtimeMessage } from "../../shared/realtime-messages";
import type { Notices } from "../events/notices";

// What the test drives' events say (decision 253): in the bell and by push (management, who took the demo out, and
// the client's rep), and on the socket.

type Event<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;

const testDriveUrl = (id: string) => `/test-drives/${id}`;

function vehicleOf(drive: TestDriveSnapshot): string {
  return drive.vehicleDriven || (drive.stockNumber ? `stock #${drive.stockNumber}` : "a demo vehicle");
}

/** Stored test-drive statuses as words ("no_show" -> "no show"; the stored "out" is the screen's in progress). */
function testDriveStatusWords(status: TestDriveSnapshot["status"]): string {
  return status === "out" ? "in progress" : status.replace("_", " ");
}

function driveMessage(event: Event<"test_drive.taken_out" | "test_drive.returned" | "test_drive.status_changed">, timestamp: string): RealtimeMessage {
  const { testDrive } = event.payload;
  return {
    type: "test_drive_updated",
    data: { firstName: testDrive.firstName, lastName: testDrive.lastName, status: testDrive.status, title: testDrive.vehicleDriven ?? "", timestamp },
  };
}

export const testDriveNotices: Notices = {
  "test_drive.taken_out": {
    bell: (event) => {
      const { testDrive, takenOutBy } = event.payload;
      return {
        type: "test_drive_taken_out",
        title: "Demo Taken Out",
        message: `Demo taken out: ${vehicleOf(testDrive)} with ${fullName(testDrive)}`,
        url: testDriveUrl(testDrive.id),
        leadId: testDrive.leadId,
        targetRoles: ["management"],
        people: [takenOutBy.id],
        leadClaimer: true,
      };
    },
    socket: driveMessage,
  },
  "test_drive.returned": {
    bell: (event) => {
      const { testDrive } = event.payload;
      const minutes = testDrive.duration === null ? "" : ` after ${testDrive.duration} min`;
      return {
        type: "test_drive_returned",
        title: "Demo Returned",
        message: `Demo returned: ${vehicleOf(testDrive)}${minutes} (${fullName(testDrive)})`,
        url: testDriveUrl(testDrive.id),
        leadId: testDrive.leadId,
        targetRoles: ["management"],
        people: [testDrive.takenOutBy],
        leadClaimer: true,
      };
    },
    socket: driveMessage,
  },
  "test_drive.status_changed": {
    bell: (event) => {
      const { testDrive, previousStatus } = event.payload;
      // Taking out and returning publish their own event as well: one notification per change, not two.
      if (testDrive.status === "out" || (previousStatus === "out" && testDrive.status === "completed")) return null;
      return {
        type: "test_drive_status_changed",
        title: "Test Drive Updated",
        message: `Test drive status changed to ${testDriveStatusWords(testDrive.status)}: ${fullName(testDrive)}`,
        url: testDriveUrl(testDrive.id),
        leadId: testDrive.leadId,
        targetRoles: ["management"],
        people: [testDrive.takenOutBy],
        leadClaimer: true,
      };
    },
    socket: driveMessage,
  },
};
