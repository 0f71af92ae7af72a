import type { FastifyInstance } from "fastify";
import { UPCOMING_APPOINTMENTS_SHOWN } from "../../shared/constants";
import { addDays, isIsoDate, localToday } from "../../shared/dealership-clock";
import { can } from "../../shared/permissions";
import {
  appointmentInputSchema,
  appointmentListQuerySchema,
  appointmentStatusSchema,
  calendarFeedRequestSchema,
  type CalendarFeedCreated,
  type CalendarFeedInfo,
} from "../../shared/schemas/appointment";
import { requireUser } from "../auth/current-user";
import { requireDealershipAccess, roleInDealership, viewerOf } from "../auth/tenancy";
import { dealershipById } from "../dealerships/queries";
import { publish } from "../events/outbox";
import { badRequest, notFound, parseInput } from "../http/errors";
import { lockVisibleLead } from "../leads/queries";
import { visibleLead } from "../leads/routes";
import { deleteFeed, feedByToken, feedOf, feedPath, issueFeed, markFeedFetched } from "./calendar-feeds";
import { appointmentsCalendar } from "./ical";
import {
  appointmentDays,
  appointmentSnapshot,
  appointmentsForFeed,
  appointmentsOfLead,
  appointmentWithUser,
  createAppointment,
  dealershipTimezone,
  findVisibleAppointment,
  listAppointments,
  setAppointmentStatus,
  upcomingAppointments,
} from "./queries";

// Appointments and the calendar (spec part 1 §2.3, §2.7, §2.8, §6, §7; decisions 020-024).

/** Calendar apps are asked to refresh a subscription this often. */
const FEED_REFRESH_SECONDS = 15 * 60;
const MAX_DAY_RANGE = 92;

export async function appointmentRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Params: { id: string } }>("/api/dealerships/:id/appointments", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const timezone = await dealershipTimezone(app.db, access.dealershipId);
    // "Not before today" on the dealership's clock, not the server's or the browser's (part 1 §5).
    const input = parseInput(appointmentInputSchema(localToday(timezone, new Date())), request.body);
    const body = await app.db.transaction(async (tx) => {
      // The lead must be one this user may see (a sales rep cannot schedule onto a colleague's client), and it stays
      // locked until the appointment commits.
      if (input.leadId && !(await lockVisibleLead(tx, access, input.leadId))) {
        throw badRequest("leadId: Lead not found in this dealership", { leadId: "Lead not found in this dealership" });
      }
      const created = await createAppointment(tx, access, input);
      await publish(tx, {
        type: "appointment.created",
        dealershipId: access.dealershipId,
        actorId: access.userId,
        payload: { appointment: appointmentSnapshot(created) },
      });
      return appointmentWithUser(tx, access, created.id);
    });
    return reply.code(201).send(body);
  });

  app.get<{ Params: { id: string } }>("/api/dealerships/:id/appointments", async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const filter = parseInput(appointmentListQuerySchema, request.query);
    const timezone = await dealershipTimezone(app.db, access.dealershipId);
    const clock = { now: new Date(), timezone };
    if (filter.type === "upcoming") return upcomingAppointments(app.db, access, clock, UPCOMING_APPOINTMENTS_SHOWN);
    return listAppointments(app.db, access, filter, clock);
  });

  // The month picker's markers: how many appointments the user can see on each day of a range.
  app.get<{ Params: { id: string }; Querystring: { from?: string; to?: string } }>(
    "/api/dealerships/:id/appointments/days",
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

  app.patch<{ Params: { id: string } }>("/api/appointments/:id/status", async (request) => {
    const user = await requireUser(request);
    // A sales user works only their own appointments; another's answers like a missing one (decision 020).
    const viewer = await findVisibleAppointment(app.db, user.id, request.params.id);
    if (!viewer) throw notFound("Appointment not found");
    const { status } = parseInput(appointmentStatusSchema, request.body);
    const body = await app.db.transaction(async (tx) => {
      const updated = await setAppointmentStatus(tx, viewer, request.params.id, status, new Date());
      if (!updated) return undefined;
      if (updated.row.status !== updated.previousStatus) {
        await publish(tx, {
          type: "appointment.status_changed",
          dealershipId: viewer.dealershipId,
          actorId: viewer.userId,
          payload: { appointment: appointmentSnapshot(updated.row), previousStatus: updated.previousStatus },
        });
      }
      return appointmentWithUser(tx, viewer, request.params.id);
    });
    if (!body) throw notFound("Appointment not found");
    return body;
  });

  // A lead's appointments for its detail page (spec part 2 §7; decision 022): GET /api/appointments?leadId=...
  app.get<{ Querystring: { leadId?: string } }>("/api/appointments", async (request) => {
    await requireUser(request);
    const leadId = request.query.leadId;
    if (typeof leadId !== "string" || !leadId) throw badRequest("leadId: is required", { leadId: "is required" });
    // The same visibility as GET /api/leads/{id}: a colleague's client is not found, not an empty list.
    const { viewer } = await visibleLead(request, leadId);
    return appointmentsOfLead(app.db, viewer, leadId);
  });

  // Calendar subscription (decision 023).
  app.get<{ Params: { id: string } }>("/api/dealerships/:id/calendar-feed", async (request, reply) => {
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
  });

  app.post<{ Params: { id: string } }>("/api/dealerships/:id/calendar-feed", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    const { scope } = parseInput(calendarFeedRequestSchema, request.body);
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
  });

  app.delete<{ Params: { id: string } }>("/api/dealerships/:id/calendar-feed", async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    await deleteFeed(app.db, access.user.id, access.dealershipId);
    return reply.code(204).send();
  });

  // The feed itself: no session (calendar apps have none); the secret token is the credential. Anything that is
  // not a live feed of a current member answers the same 404.
  app.get<{ Params: { token: string } }>("/api/calendar/:token.ics", async (request, reply) => {
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
