import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { localToday } from "../../shared/dealership-clock";
import { TEST_DRIVE_ERRORS } from "../../shared/schemas/test-drive";
import {
  createTestDriveUnitSchema,
  createVehicleSchema,
  testDriveStatusChangeSchema,
  testDriveUnitListQuerySchema,
  VEHICLE_MESSAGES,
  vehicleListQuerySchema,
} from "../../shared/schemas/vehicle";
import { dealershipTimezone } from "../appointments/queries";
import { requireUser } from "../auth/current-user";
import { requireCapability, requireDealershipAccess, type Viewer } from "../auth/tenancy";
import { badRequest, conflict, HttpError, notFound, parseInput } from "../http/errors";
import { returnVehicle } from "../test-drives/queries";
import { publishReturned } from "../test-drives/routes";
import {
  addUnit,
  addVehicle,
  decodeStockCursor,
  inventoryViewer,
  listUnits,
  listVehicles,
  removeUnit,
  removeVehicle,
  toUnit,
  toVehicle,
  unitOf,
  vehicleOf,
} from "./queries";

// The vehicle inventory and the test-drive units (spec part 2 §2 Test drive inventory, §5, §6, §7; decision 062).
// Everyone in the dealership sees and returns them; adding and removing are management's (part 2 §6), enforced here.

type IdParams = { Params: { id: string } };
type ListParams = IdParams & { Querystring: Record<string, string> };

const MANAGEMENT_ONLY_VEHICLES = "Only management can add or remove vehicles";

/** Link: rel="next" with the same query and the next cursor (as the leads lists, decision 012). */
function linkNext(reply: FastifyReply, path: string, query: Record<string, string>, next: string | null): void {
  if (!next) return;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (key !== "cursor" && typeof value === "string") params.set(key, value);
  params.set("cursor", next);
  reply.header("link", `<${path}?${params.toString()}>; rel="next"`);
}

function cursorOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const decoded = decodeStockCursor(value);
  if (decoded === null) throw badRequest("cursor: is not a valid page cursor", { cursor: "is not a valid page cursor" });
  return decoded;
}

async function inventoryAccess(request: FastifyRequest, kind: "vehicle" | "tdu", id: string): Promise<Viewer> {
  const user = await requireUser(request);
  const viewer = await inventoryViewer(request.server.db, user.id, kind, id);
  if (!viewer) throw notFound(kind === "vehicle" ? TEST_DRIVE_ERRORS.vehicleNotFound : TEST_DRIVE_ERRORS.unitNotFound);
  return viewer;
}

export async function vehicleRoutes(app: FastifyInstance): Promise<void> {
  async function today(dealershipId: string): Promise<string> {
    return localToday(await dealershipTimezone(app.db, dealershipId));
  }

  app.get<ListParams>("/api/dealerships/:id/vehicles", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = parseInput(vehicleListQuerySchema, request.query);
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
    linkNext(reply, `/api/dealerships/${encodeURIComponent(access.dealershipId)}/vehicles`, request.query, page.next);
    return page.vehicles;
  });

  app.post<IdParams>("/api/dealerships/:id/vehicles", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const input = parseInput(createVehicleSchema, request.body);
    const row = await addVehicle(app.db, access, input);
    if (!row) throw new HttpError(409, VEHICLE_MESSAGES.stockTaken, { stockNumber: VEHICLE_MESSAGES.stockTaken });
    return reply.code(201).send(toVehicle(row, null));
  });

  app.delete<IdParams>("/api/vehicles/:id", async (request) => {
    const viewer = await inventoryAccess(request, "vehicle", request.params.id);
    requireCapability(viewer, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const outcome = await removeVehicle(app.db, viewer, request.params.id);
    if (outcome === "missing") throw notFound(TEST_DRIVE_ERRORS.vehicleNotFound);
    if (outcome === "out") throw conflict(TEST_DRIVE_ERRORS.removeWhileOut);
    return { message: "Vehicle removed" };
  });

  // Part 2 §7 body {status, clientName}: "available" is Mark Returned; a vehicle goes out only with a drive (decision 062).
  app.put<IdParams>("/api/vehicles/:id/test-drive-status", async (request) => {
    const viewer = await inventoryAccess(request, "vehicle", request.params.id);
    const { status } = parseInput(testDriveStatusChangeSchema, request.body);
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

  app.get<ListParams>("/api/dealerships/:id/test-drive-units", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const query = parseInput(testDriveUnitListQuerySchema, request.query);
    const page = await listUnits(app.db, access, { q: query.q || undefined, status: query.status, limit: query.limit, cursor: cursorOf(query.cursor) });
    linkNext(reply, `/api/dealerships/${encodeURIComponent(access.dealershipId)}/test-drive-units`, request.query, page.next);
    return page.units;
  });

  app.post<IdParams>("/api/dealerships/:id/test-drive-units", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const input = parseInput(createTestDriveUnitSchema, request.body);
    const row = await addUnit(app.db, access, input);
    if (!row) throw new HttpError(409, VEHICLE_MESSAGES.unitStockTaken, { stockNumber: VEHICLE_MESSAGES.unitStockTaken });
    return reply.code(201).send(toUnit(row));
  });

  app.delete<IdParams>("/api/test-drive-units/:id", async (request) => {
    const viewer = await inventoryAccess(request, "tdu", request.params.id);
    requireCapability(viewer, "manageVehicles", MANAGEMENT_ONLY_VEHICLES);
    const outcome = await removeUnit(app.db, viewer, request.params.id);
    if (outcome === "missing") throw notFound(TEST_DRIVE_ERRORS.unitNotFound);
    if (outcome === "out") throw conflict(TEST_DRIVE_ERRORS.removeUnitWhileOut);
    return { message: "Test-drive unit removed" };
  });

  app.put<IdParams>("/api/test-drive-units/:id/status", async (request) => {
    const viewer = await inventoryAccess(request, "tdu", request.params.id);
    const { status } = parseInput(testDriveStatusChangeSchema, request.body);
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

