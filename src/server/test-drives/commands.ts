import type { z } from "zod";
import { roleCan } from "../access/asker";
import { TEST_DRIVE_ERRORS, type createTestDriveSchema, type TestDrive, type TestDriveStatus } from "../../shared/schemas/test-drive";
import { writeInDealership, type Viewer } from "../auth/tenancy";
import type { Db, Tx } from "../db/client";
import { publish } from "../events/outbox";
import { conflict, notFound, type HttpError } from "../http/errors";
import { createLead, leadSnapshot, leadWithClaimer, lockVisibleLead } from "../leads/queries";
import {
  bookableVehicle,
  deleteTestDrive,
  findVisibleTestDrive,
  insertTestDrive,
  newTestDriveId,
  releaseVehicleOf,
  returnTestDrive,
  takeOutUnit,
  takeOutVehicle,
  testDriveOf,
  testDriveSnapshot,
  updateTestDrive,
  userDisplayName,
  writeStatus,
  type ClaimVehicleOutcome,
  type DriveVehicle,
  type TestDriveRow,
} from "./queries";

type TestDriveInput = z.output<ReturnType<typeof createTestDriveSchema>>;
type TestDriveChangesInput = Parameters<typeof updateTestDrive>[3];

// The test drives' changes (issue 25; spec part 2 §2, §4, §5; decisions 062-064): each is the scoped write and its
// events in one transaction that holds the dealership (decision 176). The vehicle's state is decided by the database
// (a conditional UPDATE). A booking of a new client also creates their lead (lead.created); a status change that takes
// a drive out or back publishes test_drive.taken_out / test_drive.returned before test_drive.status_changed.

/** The refusal of a take-out, worded for the dialog's toast (part 2 §8 shows the server's message). */
function refusal(kind: "vehicle" | "tdu", outcome: Exclude<ClaimVehicleOutcome, { vehicle: DriveVehicle }>): HttpError {
  if (outcome.refused === "missing") return notFound(kind === "vehicle" ? TEST_DRIVE_ERRORS.vehicleNotFound : TEST_DRIVE_ERRORS.unitNotFound);
  if (outcome.refused === "out") return conflict(kind === "vehicle" ? TEST_DRIVE_ERRORS.vehicleOut : TEST_DRIVE_ERRORS.unitOut);
  return conflict(TEST_DRIVE_ERRORS.vehicleUnavailable);
}

/** Takes the drive's vehicle or unit out on it, or throws the refusal. Manual entries hold nothing. */
async function takeOutFor(tx: Tx, viewer: Viewer, drive: Pick<TestDriveRow, "id" | "vehicleType" | "vehicleId" | "tduId" | "firstName" | "lastName">): Promise<DriveVehicle | null> {
  const clientName = `${drive.firstName} ${drive.lastName}`.trim();
  if (drive.vehicleType === "vehicle" && drive.vehicleId) {
    const outcome = await takeOutVehicle(tx, viewer, drive.vehicleId, drive.id, clientName);
    if ("refused" in outcome) throw refusal("vehicle", outcome);
    return outcome.vehicle;
  }
  if (drive.vehicleType === "tdu" && drive.tduId) {
    const outcome = await takeOutUnit(tx, viewer, drive.tduId, drive.id, await userDisplayName(tx, viewer.userId));
    if ("refused" in outcome) throw refusal("tdu", outcome);
    return outcome.vehicle;
  }
  return null;
}

async function person(tx: Tx, userId: string) {
  return { id: userId, name: await userDisplayName(tx, userId) };
}

async function publishTakenOut(tx: Tx, viewer: Viewer, row: TestDriveRow): Promise<void> {
  await publish(tx, {
    type: "test_drive.taken_out",
    dealershipId: viewer.dealershipId,
    actorId: viewer.userId,
    payload: { testDrive: testDriveSnapshot(row), takenOutBy: await person(tx, row.takenOutBy ?? viewer.userId) },
  });
}

export async function publishReturned(tx: Tx, viewer: Viewer, row: TestDriveRow): Promise<void> {
  await publish(tx, {
    type: "test_drive.returned",
    dealershipId: viewer.dealershipId,
    actorId: viewer.userId,
    payload: { testDrive: testDriveSnapshot(row), returnedBy: await person(tx, viewer.userId) },
  });
}

/** The drive as the viewer sees it after a change in `tx`. */
async function answer(tx: Tx, viewer: Viewer, id: string): Promise<TestDrive> {
  const drive = await testDriveOf(tx, viewer, id);
  if (!drive) throw new Error("a test drive written in this transaction is not visible to its writer");
  return drive;
}

/** Takes a vehicle, unit or typed-in car out now, or books it for later (`input.status`), for a new or existing client. */
export function bookTestDrive(db: Db, access: Viewer, input: TestDriveInput, now: { date: string; time: string }): Promise<TestDrive> {
return writeInDealership(db, access, async (tx) => {
    const id = newTestDriveId();
    const event = { dealershipId: access.dealershipId, actorId: access.userId };
    // The client: an existing lead the user may see (locked until the drive commits), or a new lead.
    let client: { leadId: string | null; firstName: string; lastName: string; email: string | null; phone: string | null };
    if (input.clientType === "existing") {
      const leadId = input.leadId as string;
      const lead = (await lockVisibleLead(tx, access, leadId)) ? await leadWithClaimer(tx, access, leadId) : undefined;
      if (!lead) throw notFound(TEST_DRIVE_ERRORS.leadNotFound);
      client = { leadId: lead.id, firstName: lead.firstName, lastName: lead.lastName, email: lead.email, phone: lead.phone };
    } else {
      client = { leadId: null, firstName: input.firstName as string, lastName: input.lastName as string, email: input.email, phone: input.phone };
    }
    // The vehicle: taken out now by one conditional UPDATE, or named for a booking.
    let vehicle: DriveVehicle | null;
    if (input.status === "out") {
      vehicle = await takeOutFor(tx, access, { id, vehicleType: input.vehicleType, vehicleId: input.vehicleId, tduId: input.tduId, ...client });
    } else if (input.vehicleType !== "manual") {
      const target = (input.vehicleType === "vehicle" ? input.vehicleId : input.tduId) as string;
      vehicle = (await bookableVehicle(tx, access, input.vehicleType, target)) ?? null;
      if (!vehicle) throw notFound(input.vehicleType === "vehicle" ? TEST_DRIVE_ERRORS.vehicleNotFound : TEST_DRIVE_ERRORS.unitNotFound);
    } else vehicle = null;
    if (input.clientType === "new") {
      // A new client becomes a lead of the dealership (decision 064): a sales rep's own client at once, otherwise
      // the unclaimed pool, as a lead created on the leads screen would be.
      const lead = await createLead(
        tx,
        access,
        { firstName: client.firstName, lastName: client.lastName, email: client.email, phone: client.phone, description: null },
        roleCan(access.role, "assignLeads") ? null : access.userId,
      );
      await publish(tx, { ...event, type: "lead.created", payload: { lead: leadSnapshot(lead) } });
      client.leadId = lead.id;
    }
    const out = input.status === "out";
    const row = await insertTestDrive(tx, access, {
      id,
      clientType: input.clientType,
      ...client,
      vehicleType: input.vehicleType,
      vehicleId: input.vehicleType === "vehicle" ? input.vehicleId : null,
      tduId: input.vehicleType === "tdu" ? input.tduId : null,
      vehicleDriven: vehicle?.vehicleDriven ?? input.vehicleDriven ?? [input.make, input.model].filter(Boolean).join(" "),
      stockNumber: vehicle?.stockNumber ?? input.stockNumber,
      testDriveDate: out ? now.date : (input.testDriveDate?.trim() ?? null),
      testDriveTime: out ? now.time : (input.testDriveTime?.trim() ?? null),
      status: input.status,
      takenOutBy: out ? access.userId : null,
      takenOutAt: out ? new Date() : null,
      notes: input.notes,
    });
    if (!row) throw conflict(input.vehicleType === "tdu" ? TEST_DRIVE_ERRORS.unitOut : TEST_DRIVE_ERRORS.vehicleOut);
    if (out) await publishTakenOut(tx, access, row);
    else await publish(tx, { ...event, type: "test_drive.booked", payload: { testDrive: testDriveSnapshot(row) } });
    return answer(tx, access, row.id);
  });
}

/** Edits a drive's details (test_drive.updated when something changed), or the 404. */
export function editTestDrive(db: Db, viewer: Viewer, id: string, changes: TestDriveChangesInput): Promise<TestDrive> {
  return writeInDealership(db, viewer, async (tx) => {
    const edited = await updateTestDrive(tx, viewer, id, changes);
    if (!edited) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    if (Object.keys(edited.changes).length > 0) {
      const payload = { testDrive: testDriveSnapshot(edited.row), changes: edited.changes };
      await publish(tx, { type: "test_drive.updated", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload });
    }
    return answer(tx, viewer, edited.row.id);
  });
}

/**
 * The detail screen's status (decision 063): the drive's row locked with the user's viewer of it (its dealership held
 * first, lock order of decision 176), and what the status means for the vehicle.
 */
export function changeTestDriveStatus(db: Db, seen: Viewer, userId: string, id: string, target: TestDriveStatus): Promise<TestDrive> {
  return writeInDealership(db, seen, async (tx) => {
    const found = await findVisibleTestDrive(tx, userId, id, true);
    if (!found) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    const { row: before, viewer } = found;
    if (before.status === target) return answer(tx, viewer, before.id);
    let after: TestDriveRow;
    if (before.status === "out" && target === "completed") {
      after = (await returnTestDrive(tx, viewer, before.id)) as TestDriveRow;
      await publishReturned(tx, viewer, after);
    } else {
      if (before.status === "out") await releaseVehicleOf(tx, viewer.dealershipId, before.id);
      if (target === "out") await takeOutFor(tx, viewer, before);
      after = await writeStatus(tx, viewer, before, target);
      if (target === "out") await publishTakenOut(tx, viewer, after);
    }
    await publish(tx, {
      type: "test_drive.status_changed",
      dealershipId: viewer.dealershipId,
      actorId: viewer.userId,
      payload: { testDrive: testDriveSnapshot(after), previousStatus: before.status },
    });
    return answer(tx, viewer, after.id);
  });
}

/** Ends the open drive (test_drive.returned): returnedAt, returnedBy, duration, the vehicle or unit available again. */
export function returnDrive(db: Db, viewer: Viewer, id: string): Promise<TestDrive> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await returnTestDrive(tx, viewer, id);
    if (!row) throw conflict(TEST_DRIVE_ERRORS.notOut);
    await publishReturned(tx, viewer, row);
    return answer(tx, viewer, row.id);
  });
}

/** Deletes a drive the viewer may see (test_drive.deleted); an open drive's vehicle is freed with it. */
export function deleteDrive(db: Db, viewer: Viewer, id: string): Promise<TestDriveRow | undefined> {
  return writeInDealership(db, viewer, async (tx) => {
    const row = await deleteTestDrive(tx, viewer, id);
    if (row) await publish(tx, { type: "test_drive.deleted", dealershipId: viewer.dealershipId, actorId: viewer.userId, payload: { testDrive: testDriveSnapshot(row) } });
    return row;
  });
}
