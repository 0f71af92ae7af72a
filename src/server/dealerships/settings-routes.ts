import type { FastifyInstance } from "fastify";
import { dealershipSettingsUpdateSchema } from "../../shared/schemas/dealership-settings";
import { responses } from "../../shared/schemas/responses/dealership-settings";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, type ZodTypeProvider } from "../http/contract";
import { changeDealershipSettings, dismissFirstRunChecklist } from "./commands";
import { firstRunOf } from "./first-run";
import { settingsOf } from "./settings";

// The dealership's Settings tab and first-run checklist (issue 30, decisions 191, 192): management's. The changes are
// commands.ts's: a saved change publishes dealership.settings_changed; saving the settings as they are publishes
// nothing (after the first save).
const SEE_FORBIDDEN = "Only management can see the dealership's settings";
const CHANGE_FORBIDDEN = "Only management can change the dealership's settings";
const CHECKLIST_FORBIDDEN = "Only management can see the first-run checklist";

export async function dealershipSettingsRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.get(
    "/api/dealerships/:id/settings",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/settings"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", SEE_FORBIDDEN);
      return settingsOf(app.db, access.dealershipId);
    },
  );

  // Management is checked before the body is validated (decision 190).
  app.put(
    "/api/dealerships/:id/settings",
    {
      schema: { params: dealershipPath, body: dealershipSettingsUpdateSchema, response: answers(responses["PUT /api/dealerships/:id/settings"]) },
      preValidation: dealershipFirst("managementAccess", CHANGE_FORBIDDEN),
    },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", CHANGE_FORBIDDEN);
      return changeDealershipSettings(app.db, access, request.body);
    },
  );

  app.get(
    "/api/dealerships/:id/first-run",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/first-run"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", CHECKLIST_FORBIDDEN);
      return firstRunOf(app.db, access.dealershipId);
    },
  );

  app.post(
    "/api/dealerships/:id/first-run/dismiss",
    { schema: { params: dealershipPath, response: answers(responses["POST /api/dealerships/:id/first-run/dismiss"]) } },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      requireCapability(access, "managementAccess", CHECKLIST_FORBIDDEN);
      return dismissFirstRunChecklist(app.db, access);
    },
  );
}
