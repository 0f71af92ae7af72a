import type { FastifyInstance } from "fastify";

// The product areas' HTTP routes, registered by buildApp. Each area adds its routes.ts here.
export const areaRoutes: Array<(app: FastifyInstance) => Promise<void>> = [];
