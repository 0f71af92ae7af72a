import type { FastifyInstance } from "fastify";
import { UPCOMING_APPOINTMENTS_SHOWN } from "../../shared/constants";
import { addDays, isIsoDate, localMoment } from "../../shared/dealership-clock";
import { can } from "../../shared/permissions";
import {
  appointmentDaysQuerySchema,
  appointmentInputSchema,
  appointmentListQuerySchema,
  appointmentRequestSchema,
  appointmentStatusSchema,
  calendarFeedRequestSchema,
  type CalendarFeedCreated,
  type CalendarFeedInfo,
  leadAppointmentsQuerySchema,
} from "../../shared/schemas/appointment";
import { responses } from "../../shared/schemas/responses/appointments";
import { requireUser, signedInFirst } from "../auth/current-user";
import { dealershipFirst, requireDealershipAccess, roleInDealership, viewerOf } from "../auth/tenancy";
import { dealershipById } from "../dealerships/queries";
import { dealershipClock, dealershipTimezone } from "../dealerships/timezone";
import { answers, checkedFirst, checkedInHandler, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { badRequest, notFound, parseInput } from "../http/errors";
import { visibleLead } from "../leads/visible-lead";
import { changeAppointmentStatus, scheduleAppointment } from "./commands";
import { deleteFeed, feedByToken, feedOf, feedPath, issueFeed, markFeedFetched } from "./calendar-feeds";
import { appointmentsCalendar } from "./ical";
import {
  appointmentDays,
  appointmentsForFeed,
  appointmentsOfLead,
  findVisibleAppointment,
  listAppointments,
  upcomingAppointments,
} from "./queries";

// Appointments and the calendar (spec part 1 §2.3, §2.7, §2.8, §6, §7; decisions 020-024).

/** Calendar apps are asked to refresh a subscription this often. */
const FEED_REFRESH_SECONDS = 15 * 60;
const MAX_DAY_RANGE = 92;

export async function appointmentRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const memberFirst = dealershipFirst();

  // The body's date is bounded by the dealership's today, which the handler looks up: it parses the body itself.
  app.post(
    "/api/dealerships/:id/appointments",
    {
      schema: {
        params: dealershipPath,
        body: checkedInHandler(appointmentRequestSchema),
        response: answers(responses["POST /api/dealerships/:id/appointments"]),
      },
    },
    async (request, reply) => {
      const access = await requireDealershipAccess(request, request.params.id);
      const { timezone, businessHours } = await dealershipClock(app.db, access.dealershipId);
      // "Not before today" on the dealership's clock, not the server's or the browser's (part 1 §5), not a slot of
      // today that has already begun (issue 29), and within the day's business hours (decision 191).
      const moment = localMoment(timezone, new Date());
      const input = parseInput(appointmentInputSchema(moment.date, moment.time, businessHours), request.body);
      const body = await scheduleAppointment(app.db, access, input);
      return reply.code(201).send(body);
    },
  );

  app.get(
    "/api/dealerships/:id/appointments",
    {
      schema: { params: dealershipPath, querystring: appointmentListQuerySchema, response: answers(responses["GET /api/dealerships/:id/appointments"]) },
      preValidation: memberFirst,
    },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      const filter = request.query;
      const timezone = await dealershipTimezone(app.db, access.dealershipId);
      const clock = { now: new Date(), timezone };
      if (filter.type === "upcoming") return upcomingAppointments(app.db, access, clock, UPCOMING_APPOINTMENTS_SHOWN);
      return listAppointments(app.db, access, filter, clock);
    },
  );

  // The month picker's markers: how many appointments the user can see on each day of a range. The handler checks
  // the range, naming the first bad end only.
  app.get(
    "/api/dealerships/:id/appointments/days",
    {
      schema: {
        params: dealershipPath,
        querystring: checkedInHandler(appointmentDaysQuerySchema.partial()),
        response: answers(responses["GET /api/dealerships/:id/appointments/days"]),
      },
    },
    async (request) => {
      const access = await requireDealershipAccess(request, request.params.id);
      const { from, to } = request.query;
      if (!from || !isIsoDate(from)) throw badRequest("from: must be YYYY-MM-DD", { from: "must be YYYY-MM-DD" });
      if (!to || !isIsoDate(to)) throw badRequest("to: must be YYYY-MM-DD", { to: "must be YYYY-MM-DD" });
      if (to < from || addDays(from, MAX_DAY_RANGE) < to) {
        throw badRequest(`to: must be on or after from and at most ${MAX_DAY_RANGE} days later`, { to: "range too long" });
      }
      return appointmentDays(app.db, access, from, to);
    },
  );

  // A sales user works only their own appointments; another's answers like a missing one (decision 020), before the
  // body is looked at.
  const visibleAppointment = checkedFirst(async (request) => {
    const user = await requireUser(request);
    const viewer = await findVisibleAppointment(app.db, user.id, (request.params as { id: string }).id);
    if (!viewer) throw notFound("Appointment not found");
    return viewer;
  });
  app.patch(
    "/api/appointments/:id/status",
    {
      schema: { params: pathOf("id"), body: appointmentStatusSchema, response: answers(responses["PATCH /api/appointments/:id/status"]) },
      preValidation: visibleAppointment.preValidation,
    },
    async (request) => {
      const viewer = visibleAppointment.answer(request);
      const { status } = request.body;
      const body = await changeAppointmentStatus(app.db, viewer, request.params.id, status);
      if (!body) throw notFound("Appointment not found");
      return body;
    },
  );

  // A lead's appointments for its detail page (spec part 2 §7; decision 022): GET /api/appointments?leadId=...
  app.get(
    "/api/appointments",
    { schema: { querystring: leadAppointmentsQuerySchema, response: answers(responses["GET /api/appointments"]) }, preValidation: signedInFirst },
    async (request) => {
      await requireUser(request);
      const { leadId } = request.query;
      // The same visibility as GET /api/leads/{id}: a colleague's client is not found, not an empty list.
      const { viewer } = await visibleLead(request, leadId);
      return appointmentsOfLead(app.db, viewer, leadId);
    },
  );

  // Calendar subscription (decision 023).
  app.get(
    "/api/dealerships/:id/calendar-feed",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/calendar-feed"]) } },
    async (request, reply) => {
      const access = await requireDealershipAccess(request, request.params.id);
      const feed = await feedOf(app.db, access.user.id, access.dealershipId);
      reply.header("cache-control", "no-store");
      const info: CalendarFeedInfo = {
        exists: Boolean(feed),
        scope: feed?.scope ?? null,
        createdAt: feed?.createdAt.toISOString() ?? null,
        lastFetchedAt: feed?.lastFetchedAt?.toISOString() ?? null,
        canChooseDealership: can(access.role, "seeAllAppointments"),
      };
      return info;
    },
  );

  app.post(
    "/api/dealerships/:id/calendar-feed",
    {
      schema: { params: dealershipPath, body: calendarFeedRequestSchema, response: answers(responses["POST /api/dealerships/:id/calendar-feed"]) },
      preValidation: memberFirst,
    },
    async (request, reply) => {
      const access = await requireDealershipAccess(request, request.params.id);
      const { scope } = request.body;
      if (scope === "dealership" && !can(access.role, "seeAllAppointments")) {
        throw badRequest("scope: Only front desk and management can subscribe to all dealership appointments", {
          scope: "Only front desk and management can subscribe to all dealership appointments",
        });
      }
      const { token, row } = await issueFeed(app.db, { userId: access.user.id, dealershipId: access.dealershipId, scope }, new Date());
      const url = `${app.config.appUrl}${feedPath(token)}`;
      const body: CalendarFeedCreated = {
        scope: row.scope,
        url,
        webcalUrl: url.replace(/^https?:/, "webcal:"),
        createdAt: row.createdAt.toISOString(),
      };
      reply.header("cache-control", "no-store");
      return reply.code(201).send(body);
    },
  );

  // 204, no body: the route declares its path only.
  app.delete("/api/dealerships/:id/calendar-feed", { schema: { params: dealershipPath } }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    await deleteFeed(app.db, access.user.id, access.dealershipId);
    return reply.code(204).send();
  });

  // The feed itself: no session (calendar apps have none); the secret token is the credential. Anything that is
  // not a live feed of a current member answers the same 404.
  app.get("/api/calendar/:token.ics", { schema: { params: pathOf("token") } }, async (request, reply) => {
    const feed = await feedByToken(app.db, request.params.token);
    if (!feed) throw notFound("Calendar not found");
    const role = await roleInDealership(app.db, feed.userId, feed.dealershipId);
    const dealership = role ? await dealershipById(app.db, feed.dealershipId) : undefined;
    if (!role || !dealership) throw notFound("Calendar not found");
    const now = new Date();
    // The scope is re-checked against the role the user has now: a demoted user's feed narrows to their own.
    const all = feed.scope === "dealership" && can(role, "seeAllAppointments");
    const viewer = viewerOf(feed.userId, feed.dealershipId, role);
    const rows = await appointmentsForFeed(app.db, viewer, !all, { now, timezone: dealership.timezone });
    await markFeedFetched(app.db, feed.id, now);
    const body = appointmentsCalendar(
      {
        dealership,
        label: all ? "All appointments" : "My appointments",
        appUrl: app.config.appUrl,
        refreshSeconds: FEED_REFRESH_SECONDS,
      },
      rows,
    );
    return reply
      .type("text/calendar; charset=utf-8")
      .header("content-disposition", 'inline; filename="showroom-appointments.ics"')
      .header("cache-control", "private, max-age=300")
      .header("x-robots-tag", "noindex")
      .send(body);
  });
}
