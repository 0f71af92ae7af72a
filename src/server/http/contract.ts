import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorAnswerSchema } from "../../shared/schemas/responses/errors";
import { parseInput } from "./errors";

// Each route declares its contract on itself (issue 25 "Routes"; decision 190): params, querystring and body schemas
// from src/shared, and the answer's schema per status. Fastify runs them: the validator below before the handler, the
// serializer below on the way out. The route's own check of who asks runs in preValidation, so a 401 or 403 still
// comes before a 400, as when handlers checked first and parsed second.

export type { ZodTypeProvider };

/**
 * Request parts are checked by parseInput, the same function handlers called: a refusal is the same 400
 * `{ message, fields }` naming each failing field, and an absent body is read as `{}` as it was.
 */
export const validateWithSchema: FastifySchemaCompiler<z.ZodType> = ({ schema }) => (data) => {
  if (CHECKED_IN_HANDLER.has(schema)) return { value: data };
  try {
    return { value: parseInput(schema, data) };
  } catch (error) {
    return { error: error as Error };
  }
};

export type AnswerMismatch = "refuse" | "log";

/**
 * A running server checks the first answer of each route and status, then one in this many: checking means parsing
 * the JSON again and walking it with the schema: on a New Leads page of 100 leads about 1.8 ms of CPU, half the floor
 * server's whole request, and half the garbage collections (issue 32, bench/RESULTS.md). A field a schema misses is
 * still logged within the route's first hundred answers; the answer was always sent anyway (decision 226).
 */
export const RUNNING_SERVER_CHECKS_ONE_IN = 100;

/**
 * The answer is sent exactly as JSON.stringify writes it: nothing stripped, renamed or reordered, Dates as ISO
 * strings. The schema checks that text as the browser will read it. An answer the schema does not describe (a field
 * nobody declared, such as a hash or a token) is refused with a 500 in tests ("refuse", every answer checked); a
 * running server logs it and sends the answer ("log", a sample checked: RUNNING_SERVER_CHECKS_ONE_IN), so a gap in a
 * schema is found without taking the route down.
 */
export function answerSerializer(onMismatch: AnswerMismatch, log: FastifyBaseLogger): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) => {
    let answers = 0; // answers of this route and status so far
    return (data: unknown) => {
      const text = JSON.stringify(data);
      if (onMismatch === "log" && answers++ % RUNNING_SERVER_CHECKS_ONE_IN !== 0) return text as string;
      const result = schema.safeParse(text === undefined ? undefined : JSON.parse(text));
      if (!result.success) {
        const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
        const route = `${method} ${url} ${httpStatus}`;
        if (onMismatch === "refuse") throw new Error(`The answer of ${route} does not match its schema: ${problems.join("; ")}`);
        log.error({ route, problems }, "answer does not match its schema");
      }
      return text as string;
    };
  };
}

/** What a route declared, as registered: the contracts test reads it, and the OpenAPI document will. */
export interface DeclaredRoute {
  method: string;
  url: string;
  schema: { params?: unknown; querystring?: unknown; body?: unknown; response?: Record<string, unknown> } | undefined;
}

const declared = new WeakMap<object, DeclaredRoute[]>();

/**
 * Every route registered on the app, with its declared schema (HEAD left out: Fastify adds one per GET). Asked from
 * a plugin's own instance too (the OpenAPI route): Fastify makes each plugin's instance from its parent's with
 * Object.create, so the root is on its prototype chain.
 */
export function declaredRoutes(app: FastifyInstance): DeclaredRoute[] {
  for (let instance: object | null = app; instance; instance = Object.getPrototypeOf(instance) as object | null) {
    const routes = declared.get(instance);
    if (routes) return routes;
  }
  return [];
}

/** Set once on the root instance, before any route: every plugin inherits both compilers. */
export function useRouteContracts(app: FastifyInstance, onMismatch: AnswerMismatch): void {
  app.setValidatorCompiler(validateWithSchema);
  app.setSerializerCompiler(answerSerializer(onMismatch, app.log));
  const routes: DeclaredRoute[] = [];
  declared.set(app, routes);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") routes.push({ method, url: route.url, schema: route.schema as DeclaredRoute["schema"] });
    }
  });
}

const CHECKED_IN_HANDLER = new WeakSet<z.ZodType>();

/**
 * A request part the route describes but its handler checks, because the check needs what only the handler knows
 * (the dealership's clock bounds an appointment's date; whether an e-mail is invited picks the registration's
 * schema) or must keep its own order of refusals. Fastify passes the part through unchanged; the schema is still the
 * route's contract (and its documentation).
 */
export function checkedInHandler<S extends z.ZodType>(schema: S): S {
  const described = schema.meta({ description: "checked by the handler" }) as S;
  CHECKED_IN_HANDLER.add(described);
  return described;
}

/**
 * A check that must answer before the input is validated (a 404 for an object the user may not see came before a
 * 400 for its body), run once: the route's preValidation runs it, the handler reads its answer.
 */
export function checkedFirst<T>(check: (request: FastifyRequest) => Promise<T>): {
  preValidation: (request: FastifyRequest) => Promise<void>;
  answer: (request: FastifyRequest) => T;
} {
  const answers = new WeakMap<FastifyRequest, T>();
  return {
    preValidation: async (request) => void answers.set(request, await check(request)),
    answer: (request) => {
      if (!answers.has(request)) throw new Error("checkedFirst: the route's preValidation did not run");
      return answers.get(request) as T;
    },
  };
}

// ---- Short declarations ----

/** Path parameters are plain strings: an id that names nothing is the area's 404, not a 400 (as before schemas). */
export function pathOf<const K extends string>(...names: K[]): z.ZodObject<{ [P in K]: z.ZodString }> {
  return z.strictObject(Object.fromEntries(names.map((name) => [name, z.string()])) as { [P in K]: z.ZodString });
}

export const dealershipPath = pathOf("id");

/**
 * A route's answers: its success schema for every 2xx, and the error answer for every 4xx. `refusals` replaces the
 * 4xx schema where a route refuses with more than the common shape (the ADF intake names the stored document).
 */
export function answers<S extends z.ZodType>(success: S, refusals: z.ZodType = errorAnswerSchema) {
  return { "2xx": success, "4xx": refusals } as const;
}
