import type { FastifyInstance, FastifyRequest } from "fastify";
import { localMoment } from "../../shared/dealership-clock";
import { can } from "../../shared/permissions";
import {
  createTestDriveSchema,
  dealershipTestDriveQuerySchema,
  storedStatusOf,
  TEST_DRIVE_ERRORS,
  testDriveListQuerySchema,
  testDriveStatusSchema,
  updateTestDriveSchema,
  type TestDrive,
} from "../../shared/schemas/test-drive";
import { dealershipTimezone } from "../appointments/queries";
import { requireUser } from "../auth/current-user";
import { requireDealershipAccess, type Viewer } from "../auth/tenancy";
import type { Tx } from "../db/client";
import { publish } from "../events/outbox";
import type { HttpError} from "../http/errors";
import { conflict, forbidden, notFound, parseInput } from "../http/errors";
import { createLead, leadSnapshot, leadWithClaimer, lockVisibleLead } from "../leads/queries";
import { visibleLead } from "../leads/routes";
import {
  bookableVehicle,
  deleteTestDrive,
  findVisibleTestDrive,
  insertTestDrive,
  listTestDrives,
  newTestDriveId,
  releaseVehicleOf,
  returnTestDrive,
  takeOutUnit,
  takeOutVehicle,
  testDriveOf,
  testDrivesOfLead,
  testDriveSnapshot,
  updateTestDrive,
  userDisplayName,
  writeStatus,
  type ClaimVehicleOutcome,
  type DriveVehicle,
  type TestDriveRow,
} from "./queries";

// Test drives (spec part 2 §2 take-out dialog, Book a Test Drive, Test Drive Details; §4; §5; §7; decisions 062-064).
// The take-out rules are decided here from the body and the session; the vehicle's state is decided by the database
// (a conditional UPDATE), and every change publishes its event in its own transaction (decisions 050, 051).

type IdParams = { Params: { id: string } };

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

export async function testDriveRoutes(app: FastifyInstance): Promise<void> {
  // Take out now (the take-out dialog) or book for later (Book a Test Drive), for a new or an existing client.
  app.post("/api/test-drives", async (request, reply) => {
    await requireUser(request);
    const body = (request.body ?? {}) as { dealershipId?: unknown };
    // The dealership comes from the body (part 2 §7): without one, the schema's 400 names the field.
    if (typeof body.dealershipId !== "string" || body.dealershipId.trim() === "") parseInput(createTestDriveSchema("2000-01-01"), body);
    const access = await requireDealershipAccess(request, String(body.dealershipId).trim());
    const timezone = await dealershipTimezone(app.db, access.dealershipId);
    const now = localMoment(timezone, new Date());
    const input = parseInput(createTestDriveSchema(now.date), body);
    const drive = await app.db.transaction(async (tx) => {
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
          can(access.role, "assignLeads") ? null : access.userId,
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
      return answer(tx, access, row.id);
    });
    return reply.code(201).send(drive);
  });

  // A lead's drives for its detail page; the lead's own visibility applies (decision 064).
  app.get<{ Querystring: Record<string, string> }>("/api/test-drives", async (request) => {
    await requireUser(request);
    const { leadId } = parseInput(testDriveListQuerySchema, request.query);
    const { viewer } = await visibleLead(request, leadId);
    return testDrivesOfLead(app.db, viewer, leadId);
  });

  app.get<IdParams & { Querystring: Record<string, string> }>("/api/dealerships/:id/test-drives", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = parseInput(dealershipTestDriveQuerySchema, request.query);
    const today = localMoment(await dealershipTimezone(app.db, access.dealershipId)).date;
    return listTestDrives(app.db, access, { status: query.status, limit: query.limit, today });
  });

  async function visibleDrive(request: FastifyRequest, id: string) {
    const user = await requireUser(request);
    const found = await findVisibleTestDrive(app.db, user.id, id);
    if (!found) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return found;
  }

  app.get<IdParams>("/api/test-drives/:id", async (request) => {
    const { viewer } = await visibleDrive(request, request.params.id);
    const drive = await testDriveOf(app.db, viewer, request.params.id);
    if (!drive) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return drive;
  });

  app.patch<IdParams>("/api/test-drives/:id", async (request) => {
    const { viewer } = await visibleDrive(request, request.params.id);
    const changes = parseInput(updateTestDriveSchema, request.body);
    return app.db.transaction(async (tx) => {
      const row = await updateTestDrive(tx, viewer, request.params.id, changes);
      if (!row) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
      return answer(tx, viewer, row.id);
    });
  });

  // The detail screen's dropdown (decision 063): the stored status, and what it means for the vehicle.
  app.patch<IdParams>("/api/test-drives/:id/status", async (request) => {
    const user = await requireUser(request);
    const { status } = parseInput(testDriveStatusSchema, request.body);
    const target = storedStatusOf(status);
    return app.db.transaction(async (tx) => {
      const found = await findVisibleTestDrive(tx, user.id, request.params.id, true);
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
  });

  // Ends the open drive: returnedAt, returnedBy, duration, the vehicle or unit available again.
  app.post<IdParams>("/api/test-drives/:id/return", async (request) => {
    const { viewer } = await visibleDrive(request, request.params.id);
    return app.db.transaction(async (tx) => {
      const row = await returnTestDrive(tx, viewer, request.params.id);
      if (!row) throw conflict(TEST_DRIVE_ERRORS.notOut);
      await publishReturned(tx, viewer, row);
      return answer(tx, viewer, row.id);
    });
  });

  // Management, or whoever booked or took the drive out (decision 064). An open drive's vehicle is freed with it.
  app.delete<IdParams>("/api/test-drives/:id", async (request) => {
    const { row, viewer } = await visibleDrive(request, request.params.id);
    const own = row.createdBy === viewer.userId || row.takenOutBy === viewer.userId;
    if (!own && !can(viewer.role, "manageVehicles")) throw forbidden("Only management or whoever booked this test drive can delete it");
    const deleted = await app.db.transaction((tx) => deleteTestDrive(tx, viewer, request.params.id));
    if (!deleted) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return { message: "Test drive deleted successfully" };
  });
}
