import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { localToday } from "../../shared/dealership-clock";
import { TEST_DRIVE_ERRORS } from "../../shared/schemas/test-drive";
import {
  createTestDriveUnitSchema,
  createVehicleSchema,
  responses,
  testDriveStatusChangeSchema,
  testDriveUnitListQuerySchema,
  VEHICLE_MESSAGES,
  vehicleListQuerySchema,
} from "../../shared/schemas/vehicle";
import { responses as interestResponses } from "../../shared/schemas/vehicle-of-interest";
import { dealershipTimezone } from "../dealerships/timezone";
import { visibleLead } from "../leads/visible-lead";
import { requireUser } from "../auth/current-user";
import { dealershipFirst, requireCapability, requireDealershipAccess, type PersonViewer } from "../auth/tenancy";
import { answers, checkedFirst, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { conflict, HttpError, notFound } from "../http/errors";
import { cursorQuery } from "../http/page-cursor";
import { returnVehicle } from "../test-drives/queries";
import { publishReturned } from "../test-drives/commands";
import { addUnitToInventory, addVehicleToInventory, removeUnitFromInventory, removeVehicleFromInventory } from "./commands";
import {
  inventoryViewer,
  linkedVehiclesOf,
  listUnits,
  listVehicles,
  stockCursorOf,
  toUnit,
  toVehicle,
  unitOf,
  vehicleOf,
} from "./queries";

// The vehicle inventory and the test-drive units (spec part 2 §2 Test drive inventory, §5, §6, §7; decision 062).
// Everyone in the dealership sees and returns them; adding and removing are management's (part 2 §6), enforced here.

const MANAGEMENT_ONLY_VEHICLES = "Only management can add or remove vehicles";

/** Link: rel="next" with the same query and the next cursor (as the leads lists, decision 012). */
function linkNext(reply: FastifyReply, path: string, query: Record<string, string>, next: string | null): void {
  if (!next) return;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (key !== "cursor" && typeof value === "string") params.set(key, value);
  params.set("cursor", next);
  reply.header("link", `<${path}?${params.toString()}>; rel="next"`);
}

/** A list's ?cursor=: the stock number to continue after (a 400 naming `cursor` when it is not one of ours). */
function cursorOf(value: string | undefined): string | undefined {
  return cursorQuery(value, 1, stockCursorOf);
}

async function inventoryAccess(request: FastifyRequest, kind: "vehicle" | "tdu", id: string): Promise<PersonViewer> {
  const user = await requireUser(request);
  const viewer = await inventoryViewer(request.server.db, user.id, kind, id);
  if (!viewer) throw notFound(kind === "vehicle" ? TEST_DRIVE_ERRORS.vehicleNotFound : TEST_DRIVE_ERRORS.unitNotFound);
  return viewer;
}

export async function vehicleRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  // Who asks is answered before a query or body is validated (decision 190); the lists keep their query as it was
  // sent for the next page's Link, and a return finds its vehicle or unit (404) first.
  const listFirst = checkedFirst(async (request) => {
    await requireDealershipAccess(request, (request.params as { id: string }).id);
    return request.query as Record<string, string>;
  });
  const managerFirst = dealershipFirst("manageVehicles", MANAGEMENT_ONLY_VEHICLES);
  const vehicleFirst = checkedFirst((request) => inventoryAccess(request, "vehicle", (request.params as { id: string }).id));
  const unitFirst = checkedFirst((request) => inventoryAccess(request, "tdu", (request.params as { id: string }).id));

  async function today(dealershipId: string): Promise<string> {
    return localToday(await dealershipTimezone(app.db, dealershipId));
  }

  // The lead page's linked vehicles (decision 188): whoever may open the lead sees them, as the inventory shows them.
  app.get("/api/leads/:id/vehicles", { schema: { params: pathOf("id"), response: answers(interestResponses["GET /api/leads/:id/vehicles"]) } }, async (request) => {
    const { viewer } = await visibleLead(request, request.params.id);
    return linkedVehiclesOf(app.db, viewer, request.params.id, await today(viewer.dealershipId));
  });

  app.get("/api/dealerships/:id/vehicles", { schema: { params: dealershipPath, querystring: vehicleListQuerySchema, response: answers(responses["GET /api/dealerships/:id/vehicles"]) }, preValidation: listFirst.preValidation }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = request.query;
    const page = await listVehicles(
      app.db,
      access,
      {
        q: query.q || undefined,
        make: query.make || undefined,
        model: query.model || undefined,
        year: query.year,
        condition: query.condition,
        status: query.status,
        limit: query.limit,
        cursor: cursorOf(query.cursor),
      },
      await today(access.dealershipId),
    );
    linkNext(reply, `/api/dealerships/${encodeURIComponent(access.dealershipId)}/vehicles`, listFirst.answer(request), page.next);
    return page.vehicles;
  });

  app.post("/api/dealerships/:id/vehicles", { schema: { params: dealershipPath, body: createVehicleSchema, response: answers(responses["POST /api/dealerships/:id/vehicles"]) }, preValidation: managerFirst }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const input = request.body;
    const row = await addVehicleToInventory(app.db, access, input);
    if (!row) throw new HttpError(409, VEHICLE_MESSAGES.stockTaken, { stockNumber: VEHICLE_MESSAGES.stockTaken });
    return reply.code(201).send(toVehicle(row, null));
  });

  app.delete("/api/vehicles/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/vehicles/:id"]) } }, async (request) => {
    const viewer = await inventoryAccess(request, "vehicle", request.params.id);
    requireCapability(viewer, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const outcome = await removeVehicleFromInventory(app.db, viewer, request.params.id);
    if (outcome === "missing") throw notFound(TEST_DRIVE_ERRORS.vehicleNotFound);
    if (outcome === "out") throw conflict(TEST_DRIVE_ERRORS.removeWhileOut);
    return { message: "Vehicle removed" };
  });

  // Part 2 §7 body {status, clientName}: "available" is Mark Returned; a vehicle goes out only with a drive (decision 062).
  app.put("/api/vehicles/:id/test-drive-status", { schema: { params: pathOf("id"), body: testDriveStatusChangeSchema, response: answers(responses["PUT /api/vehicles/:id/test-drive-status"]) }, preValidation: vehicleFirst.preValidation }, async (request) => {
    const viewer = vehicleFirst.answer(request);
    const { status } = request.body;
    if (status === "out") throw conflict(TEST_DRIVE_ERRORS.takeOutWithTestDrive);
    await app.db.transaction(async (tx) => {
      const outcome = await returnVehicle(tx, viewer, "vehicle", request.params.id);
      if (!outcome.returned) throw outcome.found ? conflict(TEST_DRIVE_ERRORS.vehicleNotOut) : notFound(TEST_DRIVE_ERRORS.vehicleNotFound);
      if (outcome.drive) await publishReturned(tx, viewer, outcome.drive);
    });
    const vehicle = await vehicleOf(app.db, viewer, request.params.id, await today(viewer.dealershipId));
    if (!vehicle) throw notFound(TEST_DRIVE_ERRORS.vehicleNotFound);
    return vehicle;
  });

  // ---- Test-drive units: the same list, add, remove and return (decision 062) ----

  app.get("/api/dealerships/:id/test-drive-units", { schema: { params: dealershipPath, querystring: testDriveUnitListQuerySchema, response: answers(responses["GET /api/dealerships/:id/test-drive-units"]) }, preValidation: listFirst.preValidation }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = request.query;
    const page = await listUnits(app.db, access, { q: query.q || undefined, status: query.status, limit: query.limit, cursor: cursorOf(query.cursor) });
    linkNext(reply, `/api/dealerships/${encodeURIComponent(access.dealershipId)}/test-drive-units`, listFirst.answer(request), page.next);
    return page.units;
  });

  app.post("/api/dealerships/:id/test-drive-units", { schema: { params: dealershipPath, body: createTestDriveUnitSchema, response: answers(responses["POST /api/dealerships/:id/test-drive-units"]) }, preValidation: managerFirst }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const input = request.body;
    const row = await addUnitToInventory(app.db, access, input);
    if (!row) throw new HttpError(409, VEHICLE_MESSAGES.unitStockTaken, { stockNumber: VEHICLE_MESSAGES.unitStockTaken });
    return reply.code(201).send(toUnit(row));
  });

  app.delete("/api/test-drive-units/:id", { schema: { params: pathOf("id"), response: answers(responses["DELETE /api/test-drive-units/:id"]) } }, async (request) => {
    const viewer = await inventoryAccess(request, "tdu", request.params.id);
    requireCapability(viewer, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const outcome = await removeUnitFromInventory(app.db, viewer, request.params.id);
    if (outcome === "missing") throw notFound(TEST_DRIVE_ERRORS.unitNotFound);
    if (outcome === "out") throw conflict(TEST_DRIVE_ERRORS.removeUnitWhileOut);
    return { message: "Test-drive unit removed" };
  });

  app.put("/api/test-drive-units/:id/status", { schema: { params: pathOf("id"), body: testDriveStatusChangeSchema, response: answers(responses["PUT /api/test-drive-units/:id/status"]) }, preValidation: unitFirst.preValidation }, async (request) => {
    const viewer = unitFirst.answer(request);
    const { status } = request.body;
    if (status === "out") throw conflict(TEST_DRIVE_ERRORS.takeOutWithTestDrive);
    await app.db.transaction(async (tx) => {
      const outcome = await returnVehicle(tx, viewer, "tdu", request.params.id);
      if (!outcome.returned) throw outcome.found ? conflict(TEST_DRIVE_ERRORS.unitNotOut) : notFound(TEST_DRIVE_ERRORS.unitNotFound);
      if (outcome.drive) await publishReturned(tx, viewer, outcome.drive);
    });
    const unit = await unitOf(app.db, viewer, request.params.id);
    if (!unit) throw notFound(TEST_DRIVE_ERRORS.unitNotFound);
    return unit;
  });
}

