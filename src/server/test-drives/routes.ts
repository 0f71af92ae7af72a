import type { FastifyInstance, FastifyRequest } from "fastify";
import { closedOn } from "../../shared/business-hours";
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
  responses,
} from "../../shared/schemas/test-drive";
import { dealershipClock, dealershipTimezone } from "../dealerships/timezone";
import { requireUser, signedInFirst } from "../auth/current-user";
import { dealershipFirst, requireDealershipAccess } from "../auth/tenancy";
import { answers, checkedFirst, checkedInHandler, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, forbidden, notFound, parseInput } from "../http/errors";
import { visibleLead } from "../leads/visible-lead";
import { bookTestDrive, changeTestDriveStatus, deleteDrive, editTestDrive, returnDrive } from "./commands";
import { findVisibleTestDrive, listTestDrives, testDriveOf, testDrivesOfLead } from "./queries";

// Test drives (spec part 2 §2 take-out dialog, Book a Test Drive, Test Drive Details; §4; §5; §7; decisions 062-064).
// Who asks and what the body says are checked here; each change is a command of ./commands.ts, which publishes its
// event in its own transaction (decisions 050, 051).

export async function testDriveRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Take out now (the take-out dialog) or book for later (Book a Test Drive), for a new or an existing client. The body
  // names the dealership whose clock bounds its date: the handler parses it (decision 190).
  app.post("/api/test-drives", { schema: { body: checkedInHandler(createTestDriveSchema("")), response: answers(responses["POST /api/test-drives"]) } }, async (request, reply) => {
    await requireUser(request);
    const body = (request.body ?? {}) as { dealershipId?: unknown };
    // The dealership comes from the body (part 2 §7): without one, the schema's 400 names the field.
    if (typeof body.dealershipId !== "string" || body.dealershipId.trim() === "") parseInput(createTestDriveSchema("2000-01-01"), body);
    const access = await requireDealershipAccess(request, String(body.dealershipId).trim());
    // Not before today on the dealership's clock, nor on a day it is closed (decision 236).
    const { timezone, businessHours } = await dealershipClock(app.db, access.dealershipId);
    const now = localMoment(timezone, new Date());
    const input = parseInput(createTestDriveSchema(now.date, businessHours), body);
    const drive = await bookTestDrive(app.db, access, input, now);
    return reply.code(201).send(drive);
  });

  // A lead's drives for its detail page; the lead's own visibility applies (decision 064).
  app.get("/api/test-drives", { schema: { querystring: testDriveListQuerySchema, response: answers(responses["GET /api/test-drives"]) }, preValidation: signedInFirst }, async (request) => {
    await requireUser(request);
    const { leadId } = request.query;
    const { viewer } = await visibleLead(request, leadId);
    return testDrivesOfLead(app.db, viewer, leadId);
  });

  app.get("/api/dealerships/:id/test-drives", { schema: { params: dealershipPath, querystring: dealershipTestDriveQuerySchema, response: answers(responses["GET /api/dealerships/:id/test-drives"]) }, preValidation: dealershipFirst() }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = request.query;
    const today = localMoment(await dealershipTimezone(app.db, access.dealershipId)).date;
    return listTestDrives(app.db, access, { status: query.status, limit: query.limit, today });
  });

  async function visibleDrive(request: FastifyRequest, id: string) {
    const user = await requireUser(request);
    const found = await findVisibleTestDrive(app.db, user.id, id);
    if (!found) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return found;
  }

  // A drive the caller may not see is a 404 before its body is looked at.
  const driveFirst = checkedFirst((request) => visibleDrive(request, (request.params as { id: string }).id));

  app.get("/api/test-drives/:id", { schema: { params: pathOf("id"), response: answers(responses["GET /api/test-drives/:id"]) } }, async (request) => {
    const { viewer } = await visibleDrive(request, request.params.id);
    const drive = await testDriveOf(app.db, viewer, request.params.id);
    if (!drive) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return drive;
  });

  app.patch("/api/test-drives/:id", { schema: { params: pathOf("id"), body: updateTestDriveSchema, response: answers(responses["PATCH /api/test-drives/:id"]) }, preValidation: driveFirst.preValidation }, async (request) => {
    const { row, viewer } = driveFirst.answer(request);
    const changes = request.body;
    // A booking moved to a day the dealership is closed is refused, as a new one is (decision 236); one kept on its
    // day is not, closed since or not.
    if (changes.testDriveDate && changes.testDriveDate !== row.testDriveDate) {
      const closed = closedOn(changes.testDriveDate, (await dealershipClock(app.db, viewer.dealershipId)).businessHours);
      if (closed) throw badRequest(`testDriveDate: ${closed}`, { testDriveDate: closed });
    }
    return editTestDrive(app.db, viewer, request.params.id, changes);
  });

  // The detail screen's dropdown (decision 063): the stored status, and what it means for the vehicle.
  app.patch("/api/test-drives/:id/status", { schema: { params: pathOf("id"), body: testDriveStatusSchema, response: answers(responses["PATCH /api/test-drives/:id/status"]) }, preValidation: signedInFirst }, async (request) => {
    const user = await requireUser(request);
    const { status } = request.body;
    const target = storedStatusOf(status);
    // The drive's dealership is held before the drive's row is locked (lock order, decision 176).
    const { viewer: seen } = await visibleDrive(request, request.params.id);
    return changeTestDriveStatus(app.db, seen, user.id, request.params.id, target);
  });

  // Ends the open drive: returnedAt, returnedBy, duration, the vehicle or unit available again.
  app.post("/api/test-drives/:id/return", { schema: { params: pathOf("id"), response: answers(responses["POST /api/test-drives/:id/return"]) } }, async (request) => {
    const { viewer } = await visibleDrive(request, request.params.id);
    return returnDrive(app.db, viewer, request.params.id);
  });

  // Management, or whoever booked or took the drive out (decision 064). An open drive's vehicle is freed with it.
  app.delete("/api/test-drives/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/test-drives/:id"]) } }, async (request) => {
    const { row, viewer } = await visibleDrive(request, request.params.id);
    const own = row.createdBy === viewer.userId || row.takenOutBy === viewer.userId;
    if (!own && !can(viewer.role, "manageVehicles")) throw forbidden("Only management or whoever booked this test drive can delete it");
    const deleted = await deleteDrive(app.db, viewer, request.params.id);
    if (!deleted) throw notFound(TEST_DRIVE_ERRORS.testDriveNotFound);
    return { message: "Test drive deleted successfully" };
  });
}
