import { createECDH, randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { SessionUser } from "../../src/server/auth/current-user";
import { makeAppointment } from "../../src/server/db/factories-appointments";
import { makeDealership, makeUser, type MadeUser } from "../../src/server/db/factories";
import { makeLead } from "../../src/server/db/factories-leads";
import { grantPlatformAdminByEmail } from "../../src/server/platform/admins";
import { DEFAULT_TIMEZONE } from "../../src/shared/constants";
import { addDays, localToday } from "../../src/shared/dealership-clock";
import type * as appointmentRequests from "../../src/shared/schemas/appointment";
import type * as teamRequests from "../../src/shared/schemas/team";
import { responses as appointmentResponses, type Appointment } from "../../src/shared/schemas/responses/appointments";
import { responses as authResponses, currentUserSchema, type CurrentUser } from "../../src/shared/schemas/responses/auth";
import { responses as emailNotificationResponses } from "../../src/shared/schemas/responses/email-notifications";
import { responses as notificationResponses } from "../../src/shared/schemas/responses/notifications";
import { responses as pushResponses } from "../../src/shared/schemas/responses/push";
import { responses as leadResponses } from "../../src/shared/schemas/responses/leads";
import { responses as leadDuplicateResponses } from "../../src/shared/schemas/responses/lead-duplicates";
import { responses as deletedLeadResponses } from "../../src/shared/schemas/responses/deleted-leads";
import { responses as speedToLeadResponses } from "../../src/shared/schemas/responses/speed-to-lead";
import { responses as taskResponses } from "../../src/shared/schemas/responses/tasks";
import { responses as distributionResponses } from "../../src/shared/schemas/responses/distribution";
import { responses as activityResponses } from "../../src/shared/schemas/responses/activity";
import { responses as intakeResponses } from "../../src/shared/schemas/responses/intake";
import { responses as platformResponses } from "../../src/shared/schemas/responses/platform";
import { responses as profileResponses } from "../../src/shared/schemas/responses/profile";
import { responses as teamResponses } from "../../src/shared/schemas/responses/team";
import { responses as analyticsResponses } from "../../src/shared/schemas/analytics";
import { responses as testDriveResponses } from "../../src/shared/schemas/test-drive";
import { responses as vehicleResponses } from "../../src/shared/schemas/vehicle";
import { responses as vehicleOfInterestResponses } from "../../src/shared/schemas/vehicle-of-interest";
import { vehiclesOfInterest } from "../../src/server/db/schema/vehicles-of-interest";
import { makeTestDrive, makeUnit, makeVehicle } from "../../src/server/db/factories-test-drives";
import type * as appointmentShapes from "../../src/shared/schemas/responses/appointments";
import type * as emailNotificationShapes from "../../src/shared/schemas/responses/email-notifications";
import type * as teamShapes from "../../src/shared/schemas/responses/team";
import { codeIn, startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";
import { anonymous, createTestApp, signIn, type Agent, type TestApp } from "../helpers/test-app";
import { totpAt } from "../helpers/totp";
import { deliverMail } from "../helpers/deliver-mail";
import { responses as integrationResponses } from "../../src/shared/schemas/responses/integrations";
import { responses as customerEmailResponses } from "../../src/shared/schemas/responses/customer-email";
import { responses as dealershipSettingsResponses } from "../../src/shared/schemas/responses/dealership-settings";
import { webhookDeliveries, webhooks } from "../../src/server/db/schema/integrations";

// Every API route's real answer against its response schema in src/shared (ARCHITECTURE "Responses are schemas too";
// decision 053). Each route is called successfully, as a role allowed to, on a seeded database; the schemas are
// strict objects, so a field nobody declared (a password hash, a token) fails here before it reaches a browser. A
// route added later without a schema, or without a reason for answering no JSON, fails the first test.

const AREAS = {
  auth: authResponses,
  leads: leadResponses,
  intake: intakeResponses,
  appointments: appointmentResponses,
  team: teamResponses,
  "email-notifications": emailNotificationResponses,
  notifications: notificationResponses,
  push: pushResponses,
  platform: platformResponses,
  profile: profileResponses,
  vehicles: vehicleResponses,
  "vehicles-of-interest": vehicleOfInterestResponses,
  "test-drives": testDriveResponses,
  analytics: analyticsResponses,
  "lead-duplicates": leadDuplicateResponses,
  "deleted-leads": deletedLeadResponses,
  "speed-to-lead": speedToLeadResponses,
  tasks: taskResponses,
  activity: activityResponses,
  integrations: integrationResponses,
  "customer-email": customerEmailResponses,
  "dealership-settings": dealershipSettingsResponses,
  distribution: distributionResponses,
};
const SCHEMAS = {
  ...authResponses,
  ...leadResponses,
  ...deletedLeadResponses,
  ...intakeResponses,
  ...appointmentResponses,
  ...teamResponses,
  ...emailNotificationResponses,
  ...notificationResponses,
  ...pushResponses,
  ...platformResponses,
  ...profileResponses,
  ...vehicleResponses,
  ...vehicleOfInterestResponses,
  ...testDriveResponses,
  ...analyticsResponses,
  ...leadDuplicateResponses,
  ...speedToLeadResponses,
  ...taskResponses,
  ...distributionResponses,
  ...activityResponses,
  ...integrationResponses,
  ...customerEmailResponses,
  ...dealershipSettingsResponses,
};
type JsonRoute = keyof typeof SCHEMAS;

/** Routes that answer no JSON body, and why. Each is still called, and what it answers instead is checked. */
const NOT_JSON = {
  "GET /api/login": "a browser navigation when the session is gone: a redirect to the sign-in screen (part 1 §7)",
  "GET /api/calendar/:token.ics": "the calendar subscription itself: text/calendar for calendar apps (decision 023)",
  "DELETE /api/dealerships/:id/calendar-feed": "turning the subscription off: 204 with no body",
  "GET /api/avatars/:file": "a profile picture: image/webp (decision 084)",
  "GET /api/dealerships/:id/leads/export": "the leads list as a CSV download: text/csv (decision 135)",
  "GET /api/docs": "the API's documentation page: text/html (decision 209)",
  "GET /api/docs/start.js": "the documentation page's start: text/javascript",
  "GET /api/docs/redoc.js": "Redoc, which draws the documentation page: text/javascript",
} as const;
type NotJsonRoute = keyof typeof NOT_JSON;

const STRONG_PASSWORD = "Showroom-answers-2026";

let t: TestApp;
let smtp: SmtpReceiver;
let ours: string;
let other: string;
let manager: Agent;
let rep: Agent;
let admin: Agent;
let repUser: MadeUser;
let managerUser: MadeUser;
/** Tomorrow on the dealership's clock: a date the schedule form accepts. */
let tomorrow: string;
let leadWithAppointment: string;
let routes: string[];

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createTestApp({ smtpUrl: smtp.url });
  ours = (await makeDealership(t.db, { name: "Answer Motors", address: "1 Main St", phone: "416-555-0100" })).id;
  other = (await makeDealership(t.db, { name: "Second Lot" })).id;
  managerUser = await makeUser(t.db, {
    phone: "416-555-0101",
    memberships: [
      { dealershipId: ours, role: "management" },
      { dealershipId: other, role: "sales" },
    ],
  });
  repUser = await makeUser(t.db, { memberships: [{ dealershipId: ours, role: "sales" }] });
  const adminUser = await makeUser(t.db);
  await grantPlatformAdminByEmail(t.db, adminUser.email);
  manager = await signIn(t.app, managerUser);
  rep = await signIn(t.app, repUser);
  admin = await signIn(t.app, adminUser);

  tomorrow = addDays(localToday(DEFAULT_TIMEZONE, new Date()), 1);
  await makeLead(t.db, { dealershipId: ours, description: "Wants a hatchback" });
  const claimed = await makeLead(t.db, { dealershipId: ours, claimedBy: repUser.id });
  leadWithAppointment = claimed.id;
  await makeAppointment(t.db, { dealershipId: ours, userId: repUser.id, date: tomorrow, time: "11:00", leadId: claimed.id });
  await invite("pending@example.com");
  routes = t.app.routeList.filter((r) => r.url.startsWith("/api/")).map((r) => `${r.method} ${r.url}`);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

// ---- Fixtures made through the API where no factory exists ----

let emails = 0;
const freshEmail = (label: string) => `${label}-${++emails}@example.com`;

async function invite(email: string): Promise<{ id: string }> {
  const response = await manager.post(`/api/dealerships/${ours}/invites`, { email, firstName: "Ina", lastName: "Vited", role: "sales" });
  if (response.statusCode !== 201) throw new Error(`invite failed: ${response.statusCode} ${response.body}`);
  return response.json<{ id: string }>();
}

async function newMember(role: "sales" | "frontDesk" = "sales"): Promise<MadeUser> {
  return makeUser(t.db, { memberships: [{ dealershipId: ours, role }] });
}

async function firstTrigger(): Promise<{ id: string }> {
  const response = await manager.get(`/api/dealerships/${ours}/email-notifications/triggers`);
  return response.json<Array<{ id: string }>>()[0]!;
}

/** A fresh notification of the manager's (a lead the rep added): its id. */
async function managerHasNotification(): Promise<string> {
  const created = await rep.post(`/api/dealerships/${ours}/leads`, { firstName: "Bell", lastName: "Ringer", phone: "416-555-0177" });
  if (created.statusCode !== 201) throw new Error(`lead failed: ${created.statusCode} ${created.body}`);
  await t.app.events.flush();
  const [newest] = (await manager.get(`/api/dealerships/${ours}/notifications`)).json<Array<{ id: string }>>();
  if (!newest) throw new Error("the manager has no notification");
  return newest.id;
}

/** Two leads of one customer made through the API, so the second is linked to the first (issue 14). */
async function twinLeads(): Promise<[string, string]> {
  const email = freshEmail("twin");
  const ids: string[] = [];
  for (const firstName of ["Tia", "Tina"]) {
    const response = await manager.post(`/api/dealerships/${ours}/leads`, { firstName, lastName: "Twin", email });
    ids.push(response.json<{ id: string }>().id);
  }
  return [ids[0]!, ids[1]!];
}

async function newAppointment(): Promise<string> {
  return (await makeAppointment(t.db, { dealershipId: ours, userId: managerUser.id, date: tomorrow, time: "14:00" })).id;
}

/** A fresh user with two-factor on: their session and backup codes (codes computed as a phone would, at real time). */
async function withTwoFactor(): Promise<{ session: Agent; user: MadeUser; backupCodes: string[] }> {
  const user = await makeUser(t.db);
  const session = await signIn(t.app, user);
  const { secret } = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
  const verified = await session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, Date.now()) });
  if (verified.statusCode !== 200) throw new Error(`2FA setup failed: ${verified.statusCode} ${verified.body}`);
  return { session, user, backupCodes: verified.json<{ backupCodes: string[] }>().backupCodes };
}

const AVATAR_BOUNDARY = "----responses-avatar";
async function uploadAvatar(session: Agent) {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3355aa" } }).png().toBuffer();
  return session.request({
    method: "POST",
    url: "/api/user/avatar",
    headers: { "content-type": `multipart/form-data; boundary=${AVATAR_BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(`--${AVATAR_BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${AVATAR_BOUNDARY}--\r\n`),
    ]),
  });
}

// ---- One successful call of each route ----

type Call = () => Promise<LightMyRequestResponse>;

const CALLS: Record<JsonRoute | NotJsonRoute, Call> = {
  // Sign-in and the current user
  "POST /api/register": () =>
    anonymous(t.app).post("/api/register", {
      firstName: "Reg",
      lastName: "Istered",
      email: freshEmail("register"),
      phone: "416-555-0199",
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      dealershipName: "Fresh Motors",
    }),
  "POST /api/login": () => anonymous(t.app).post("/api/login", { email: managerUser.email, password: managerUser.password }),
  "GET /api/login": () => anonymous(t.app).get("/api/login"),
  "POST /api/logout": async () => (await signIn(t.app, await makeUser(t.db))).post("/api/logout"),
  "GET /api/user": () => manager.get("/api/user"),
  "GET /api/user/platform-admin-status": () => admin.get("/api/user/platform-admin-status"),
  "GET /api/dealerships": () => manager.get("/api/dealerships"),
  "POST /api/user/current-dealership": () => manager.post("/api/user/current-dealership", { dealershipId: other }),
  "GET /api/dealerships/:id/users/:userId/role": () => manager.get(`/api/dealerships/${ours}/users/${repUser.id}/role`),

  // Leads and the dashboard
  "GET /api/dealerships/:id/leads": () => manager.get(`/api/dealerships/${ours}/leads`),
  "POST /api/dealerships/:id/leads": () =>
    manager.post(`/api/dealerships/${ours}/leads`, {
      firstName: "Ada",
      lastName: "Walk-in",
      email: "ada@example.com",
      phone: "4165550142",
      description: "Trade-in next month",
      assignedTo: repUser.id,
    }),
  "GET /api/leads/:id": () => rep.get(`/api/leads/${leadWithAppointment}`),
  "PATCH /api/leads/:id": async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: repUser.id });
    return manager.patch(`/api/leads/${lead.id}`, { description: "Prefers e-mail", status: "qualified" });
  },
  "PATCH /api/leads/:id/status": async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: repUser.id });
    return rep.patch(`/api/leads/${lead.id}/status`, { status: "contacted" });
  },
  "POST /api/leads/:id/claim": async () => rep.post(`/api/leads/${(await makeLead(t.db, { dealershipId: ours })).id}/claim`),
  "DELETE /api/leads/:id": async () => manager.delete(`/api/leads/${(await makeLead(t.db, { dealershipId: ours })).id}`),
  // Recently deleted (issue 30, decision 214).
  "GET /api/dealerships/:id/deleted-leads": async () => {
    await manager.delete(`/api/leads/${(await makeLead(t.db, { dealershipId: ours })).id}`);
    return manager.get(`/api/dealerships/${ours}/deleted-leads`);
  },
  "POST /api/leads/:id/restore": async () => {
    const lead = await makeLead(t.db, { dealershipId: ours, claimedBy: repUser.id });
    await manager.delete(`/api/leads/${lead.id}`);
    return manager.post(`/api/leads/${lead.id}/restore`);
  },
  "POST /api/dealerships/:id/leads/remind-unattended": () => manager.post(`/api/dealerships/${ours}/leads/remind-unattended`),
  "GET /api/dealerships/:id/metrics": () => manager.get(`/api/dealerships/${ours}/metrics`),
  // Duplicates, merge and speed-to-lead (issue 14).
  "GET /api/leads/:id/duplicates": async () => {
    const [, second] = await twinLeads();
    return manager.get(`/api/leads/${second}/duplicates`);
  },
  "POST /api/leads/:id/merge": async () => {
    const [first, second] = await twinLeads();
    return manager.post(`/api/leads/${first}/merge`, { mergeLeadId: second, choices: { description: "both" } });
  },
  "DELETE /api/leads/:id/duplicates/:otherId": async () => {
    const [first, second] = await twinLeads();
    return manager.delete(`/api/leads/${first}/duplicates/${second}`);
  },
  "GET /api/dealerships/:id/speed-to-lead": () => manager.get(`/api/dealerships/${ours}/speed-to-lead?days=30`),
  "PUT /api/dealerships/:id/speed-to-lead/settings": () => manager.put(`/api/dealerships/${ours}/speed-to-lead/settings`, { unattendedLeadMinutes: 20 }),
  "POST /api/leads/:id/call": () => rep.post(`/api/leads/${leadWithAppointment}/call`),
  "GET /api/leads/:id/activity": () => rep.get(`/api/leads/${leadWithAppointment}/activity`),
  "POST /api/leads/:id/notes": () => rep.post(`/api/leads/${leadWithAppointment}/notes`, { body: "Prefers e-mail", mentions: [] }),
  "PATCH /api/notes/:id": async () => rep.patch(`/api/notes/${(await rep.post(`/api/leads/${leadWithAppointment}/notes`, { body: "A" })).json().id}`, { body: "B" }),
  "DELETE /api/notes/:id": async () => rep.delete(`/api/notes/${(await rep.post(`/api/leads/${leadWithAppointment}/notes`, { body: "A" })).json().id}`),
  "POST /api/leads/:id/calls": () => rep.post(`/api/leads/${leadWithAppointment}/calls`, { outcome: "voicemail" }),
  // E-mail with the customer (decision 228); without SMTP_URL the mail is only logged.
  "POST /api/leads/:id/emails": () => rep.post(`/api/leads/${leadWithAppointment}/emails`, { subject: "Your quote", body: "Hello" }),
  "GET /api/leads/:id/email-draft": async () => rep.get(`/api/leads/${leadWithAppointment}/email-draft?templateId=${await emailTemplate()}`),
  "GET /api/dealerships/:id/email-templates": async () => (await emailTemplate(), rep.get(`/api/dealerships/${ours}/email-templates`)),
  "POST /api/dealerships/:id/email-templates": () => manager.post(`/api/dealerships/${ours}/email-templates`, TEMPLATE),
  "PUT /api/dealerships/:id/email-templates/:templateId": async () => manager.put(`/api/dealerships/${ours}/email-templates/${await emailTemplate()}`, { ...TEMPLATE, name: "Changed" }),
  "DELETE /api/dealerships/:id/email-templates/:templateId": async () => manager.delete(`/api/dealerships/${ours}/email-templates/${await emailTemplate()}`),

  // Appointments and the calendar
  "POST /api/dealerships/:id/appointments": () =>
    manager.post(`/api/dealerships/${ours}/appointments`, {
      title: "Test drive",
      firstName: "Ada",
      lastName: "Walk-in",
      email: "ada@example.com",
      phone: "416-555-0142",
      description: "The blue one",
      date: tomorrow,
      time: "10:00",
      duration: 45,
      leadId: leadWithAppointment,
    }),
  "GET /api/dealerships/:id/appointments": () => manager.get(`/api/dealerships/${ours}/appointments?date=${tomorrow}`),
  "GET /api/dealerships/:id/appointments/days": () =>
    manager.get(`/api/dealerships/${ours}/appointments/days?from=${tomorrow}&to=${addDays(tomorrow, 30)}`),
  "PATCH /api/appointments/:id/status": async () => manager.patch(`/api/appointments/${await newAppointment()}/status`, { status: "arrived" }),
  "GET /api/appointments": () => rep.get(`/api/appointments?leadId=${leadWithAppointment}`),
  "GET /api/dealerships/:id/calendar-feed": async () => {
    await rep.post(`/api/dealerships/${ours}/calendar-feed`, { scope: "mine" });
    return rep.get(`/api/dealerships/${ours}/calendar-feed`);
  },
  "POST /api/dealerships/:id/calendar-feed": () => manager.post(`/api/dealerships/${ours}/calendar-feed`, { scope: "dealership" }),
  "DELETE /api/dealerships/:id/calendar-feed": async () => {
    await manager.post(`/api/dealerships/${ours}/calendar-feed`, { scope: "mine" });
    return manager.delete(`/api/dealerships/${ours}/calendar-feed`);
  },
  "GET /api/calendar/:token.ics": async () => {
    const created = await rep.post(`/api/dealerships/${ours}/calendar-feed`, { scope: "mine" });
    return anonymous(t.app).get(new URL(created.json<{ url: string }>().url).pathname);
  },

  // The team: invitations, sign-up by e-mail code, members
  "GET /api/dealerships/:id/invites": () => manager.get(`/api/dealerships/${ours}/invites`),
  "POST /api/dealerships/:id/invites": () =>
    manager.post(`/api/dealerships/${ours}/invites`, { email: freshEmail("invitee"), firstName: "New", lastName: "Hire", role: "frontDesk" }),
  "POST /api/dealerships/:id/invites/:inviteId/resend": async () =>
    manager.post(`/api/dealerships/${ours}/invites/${(await invite(freshEmail("resend"))).id}/resend`),
  "DELETE /api/dealerships/:id/invites/:inviteId": async () =>
    manager.delete(`/api/dealerships/${ours}/invites/${(await invite(freshEmail("withdrawn"))).id}`),
  "GET /api/invites/email/:email": () => anonymous(t.app).get(`/api/invites/email/${encodeURIComponent("pending@example.com")}`),
  "POST /api/auth/email-verification/request": () => anonymous(t.app).post("/api/auth/email-verification/request", { email: "pending@example.com" }),
  "POST /api/auth/email-verification/verify": async () => {
    const email = freshEmail("joiner");
    await invite(email);
    const requested = await anonymous(t.app).post("/api/auth/email-verification/request", { email });
    if (requested.statusCode !== 200) throw new Error(`code request failed: ${requested.statusCode} ${requested.body}`);
    const code = codeIn(await smtp.waitFor(email, { subject: /verification code/ }));
    return anonymous(t.app).post("/api/auth/email-verification/verify", {
      email,
      code,
      firstName: "Joy",
      lastName: "Ner",
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
    });
  },
  "GET /api/dealerships/:id/users": () => rep.get(`/api/dealerships/${ours}/users`),
  "PATCH /api/dealerships/:id/users/:userId/role": async () =>
    manager.patch(`/api/dealerships/${ours}/users/${(await newMember()).id}/role`, { role: "frontDesk" }),
  "DELETE /api/dealerships/:id/users/:userId": async () => {
    const member = await newMember();
    await makeLead(t.db, { dealershipId: ours, claimedBy: member.id });
    return manager.delete(`/api/dealerships/${ours}/users/${member.id}`);
  },

  // The header bell (issue 11): a rep's new lead tells the manager.
  "GET /api/dealerships/:id/notifications": async () => {
    await managerHasNotification();
    return manager.get(`/api/dealerships/${ours}/notifications`);
  },
  "GET /api/dealerships/:id/notifications/count": async () => {
    await managerHasNotification();
    return manager.get(`/api/dealerships/${ours}/notifications/count`);
  },
  "POST /api/notifications/:id/read": async () => manager.post(`/api/notifications/${await managerHasNotification()}/read`),
  "POST /api/dealerships/:id/notifications/mark-all-read": async () => {
    await managerHasNotification();
    return manager.post(`/api/dealerships/${ours}/notifications/mark-all-read`);
  },

  // Web push (issue 11, decision 111)
  "GET /api/push/public-key": () => rep.get("/api/push/public-key"),
  "POST /api/push/subscriptions": () => rep.post("/api/push/subscriptions", browserPush(freshEmail("push"))),
  "DELETE /api/push/subscriptions": async () => {
    const browser = browserPush(freshEmail("push-off"));
    await rep.post("/api/push/subscriptions", browser);
    return rep.request({ method: "DELETE", url: "/api/push/subscriptions", payload: { endpoint: browser.endpoint } });
  },

  // E-mail notifications
  "GET /api/dealerships/:id/email-notifications/triggers": () => manager.get(`/api/dealerships/${ours}/email-notifications/triggers`),
  "PATCH /api/dealerships/:id/email-notifications/triggers/:triggerId": async () =>
    manager.patch(`/api/dealerships/${ours}/email-notifications/triggers/${(await firstTrigger()).id}`, { isActive: false }),
  "GET /api/dealerships/:id/email-notifications/subscriptions": async () => {
    const trigger = await firstTrigger();
    await manager.post(`/api/dealerships/${ours}/email-notifications/subscriptions`, { userId: repUser.id, triggerId: trigger.id, isSubscribed: true });
    return manager.get(`/api/dealerships/${ours}/email-notifications/subscriptions`);
  },
  "POST /api/dealerships/:id/email-notifications/subscriptions": async () =>
    manager.post(`/api/dealerships/${ours}/email-notifications/subscriptions`, {
      userId: managerUser.id,
      triggerId: (await firstTrigger()).id,
      isSubscribed: true,
    }),

  // The installation
  "GET /api/health": () => anonymous(t.app).get("/api/health"),
  "GET /api/ready": () => anonymous(t.app).get("/api/ready"),
  "GET /api/platform/overview": () => admin.get("/api/platform/overview"),

  // Profile, password, sessions, two-factor, forgotten password (issue 15)
  "PATCH /api/user/profile": async () => (await signIn(t.app, await makeUser(t.db))).patch("/api/user/profile", { firstName: "Pro", lastName: "File" }),
  "POST /api/user/email-verification/request": async () =>
    (await signIn(t.app, await makeUser(t.db, { emailVerified: false }))).post("/api/user/email-verification/request"),
  "POST /api/user/email-verification/confirm": async () => {
    const user = await makeUser(t.db, { emailVerified: false });
    const session = await signIn(t.app, user);
    const before = smtp.mailsTo(user.email).length;
    await session.post("/api/user/email-verification/request");
    const code = codeIn(await smtp.waitFor(user.email, { subject: /Verify your Showroom e-mail/, since: before }));
    return session.post("/api/user/email-verification/confirm", { code });
  },
  "POST /api/user/email-change/request": async () => {
    const user = await makeUser(t.db);
    return (await signIn(t.app, user)).post("/api/user/email-change/request", { email: freshEmail("moved"), currentPassword: user.password });
  },
  "POST /api/user/email-change/confirm": async () => {
    const user = await makeUser(t.db);
    const session = await signIn(t.app, user);
    const email = freshEmail("moved");
    await session.post("/api/user/email-change/request", { email, currentPassword: user.password });
    const code = codeIn(await smtp.waitFor(email, { subject: /Confirm your new Showroom e-mail/ }));
    return session.post("/api/user/email-change/confirm", { code });
  },
  "POST /api/user/avatar": async () => uploadAvatar(await signIn(t.app, await makeUser(t.db))),
  "GET /api/avatars/:file": async () => {
    const session = await signIn(t.app, await makeUser(t.db));
    return session.get((await uploadAvatar(session)).json<{ profileImageUrl: string }>().profileImageUrl);
  },
  "PATCH /api/user/password": async () => {
    const user = await makeUser(t.db);
    return (await signIn(t.app, user)).patch("/api/user/password", { currentPassword: user.password, newPassword: STRONG_PASSWORD });
  },
  "GET /api/user/sessions": () => manager.get("/api/user/sessions"),
  "POST /api/user/sessions/sign-out-others": async () => {
    const user = await makeUser(t.db);
    await signIn(t.app, user);
    return (await signIn(t.app, user)).post("/api/user/sessions/sign-out-others");
  },
  "GET /api/auth/2fa/status": () => manager.get("/api/auth/2fa/status"),
  "POST /api/auth/2fa/setup": async () => (await signIn(t.app, await makeUser(t.db))).post("/api/auth/2fa/setup"),
  "POST /api/auth/2fa/verify-setup": async () => {
    const session = await signIn(t.app, await makeUser(t.db));
    const { secret } = (await session.post("/api/auth/2fa/setup")).json<{ secret: string }>();
    return session.post("/api/auth/2fa/verify-setup", { secret, token: totpAt(secret, Date.now()) });
  },
  "POST /api/auth/2fa/disable": async () => {
    const { session, user, backupCodes } = await withTwoFactor();
    return session.post("/api/auth/2fa/disable", { password: user.password, token: backupCodes[0] });
  },
  "POST /api/auth/2fa/regenerate-backup-codes": async () => {
    const { session, user } = await withTwoFactor();
    return session.post("/api/auth/2fa/regenerate-backup-codes", { password: user.password });
  },
  "POST /api/auth/password-reset/request": () => anonymous(t.app).post("/api/auth/password-reset/request", { email: repUser.email }),
  "POST /api/auth/password-reset/confirm": async () => {
    const user = await makeUser(t.db);
    const before = smtp.mailsTo(user.email).length;
    const requested = await anonymous(t.app).post("/api/auth/password-reset/request", { email: user.email });
    if (requested.statusCode !== 200) throw new Error(`reset request failed: ${requested.statusCode} ${requested.body}`);
    await deliverMail(t.app);
    const mail = await smtp.waitFor(user.email, { subject: /Reset your Showroom password/, since: before });
    const token = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? "";
    return anonymous(t.app).post("/api/auth/password-reset/confirm", { token, newPassword: STRONG_PASSWORD, confirmPassword: STRONG_PASSWORD });
  },
  "GET /api/platform/activity": async () => {
    await admin.post("/api/platform/maintenance");
    return admin.get("/api/platform/activity");
  },
  "POST /api/platform/maintenance": () => admin.post("/api/platform/maintenance"),
  "POST /api/platform/test-email": () => admin.post("/api/platform/test-email", {}),
  "GET /api/platform/dealerships": () => admin.get("/api/platform/dealerships?search=answer"),
  "POST /api/platform/dealerships": () => admin.post("/api/platform/dealerships", platformDealership()),
  "PUT /api/platform/dealerships/:id": async () =>
    admin.put(`/api/platform/dealerships/${await platformDealershipId()}`, { name: "Renamed Motors", website: "renamed.example.com" }),
  "DELETE /api/platform/dealerships/:id": async () => {
    const id = await platformDealershipId();
    await makeUser(t.db, { memberships: [{ dealershipId: id, role: "sales" }] });
    return admin.delete(`/api/platform/dealerships/${id}`);
  },
  "GET /api/platform/dealerships/:id/users": () => admin.get(`/api/platform/dealerships/${ours}/users`),
  "PUT /api/platform/dealerships/:id/users/:userId/role": async () =>
    admin.put(`/api/platform/dealerships/${ours}/users/${(await newMember()).id}/role`, { role: "frontDesk" }),
  "DELETE /api/platform/dealerships/:id/users/:userId": async () =>
    admin.delete(`/api/platform/dealerships/${ours}/users/${(await newMember()).id}`),
  "GET /api/platform/dealerships/:id/invites": () => admin.get(`/api/platform/dealerships/${ours}/invites`),
  "POST /api/platform/dealerships/:id/invite": () => admin.post(`/api/platform/dealerships/${ours}/invite`, { email: freshEmail("platform-invitee") }),
  "POST /api/platform/invites/:id/resend": async () => admin.post(`/api/platform/invites/${(await invite(freshEmail("platform-resend"))).id}/resend`),
  "DELETE /api/platform/invites/:id": async () => admin.delete(`/api/platform/invites/${(await invite(freshEmail("platform-withdrawn"))).id}`),
  "GET /api/platform/users": () => admin.get("/api/platform/users?show=all"),
  "PATCH /api/platform/users/:id": async () =>
    admin.patch(`/api/platform/users/${(await newMember()).id}`, { firstName: "Edi", lastName: "Ted", email: freshEmail("edited"), phone: "4165550177" }),
  "DELETE /api/platform/users/:id": async () => {
    const member = await newMember();
    await makeLead(t.db, { dealershipId: ours, claimedBy: member.id });
    return admin.delete(`/api/platform/users/${member.id}`);
  },
  "POST /api/platform/admins/grant": async () => admin.post("/api/platform/admins/grant", { email: (await newMember()).email }),
  "DELETE /api/platform/admins/:userId": async () => {
    const member = await newMember();
    await grantPlatformAdminByEmail(t.db, member.email);
    return admin.delete(`/api/platform/admins/${member.id}`);
  },

  // Vehicles, test-drive units, test drives and analytics (issue 9)
  "GET /api/dealerships/:id/vehicles": async () => {
    await makeVehicle(t.db, { dealershipId: ours, vin: "1HGCM82633A004352", price: 1_299_900, mileage: 84_000 });
    return rep.get(`/api/dealerships/${ours}/vehicles`);
  },
  // The lead's vehicle of interest found in the inventory (issue 29, decision 188).
  "GET /api/leads/:id/vehicles": async () => {
    const car = await makeVehicle(t.db, { dealershipId: ours, vin: "1HGCM82633A004352" });
    await t.db.insert(vehiclesOfInterest).values({ dealershipId: ours, leadId: leadWithAppointment, interest: "buy", vin: car.vin, vehicleId: car.id });
    return rep.get(`/api/leads/${leadWithAppointment}/vehicles`);
  },
  "POST /api/dealerships/:id/vehicles": () =>
    manager.post(`/api/dealerships/${ours}/vehicles`, { year: "2024", make: "Honda", model: "Civic", stockNumber: "ANS-1", condition: "new", price: 2_500_000 }),
  "DELETE /api/vehicles/:id": async () => manager.delete(`/api/vehicles/${(await makeVehicle(t.db, { dealershipId: ours })).id}`),
  "PUT /api/vehicles/:id/test-drive-status": async () => {
    const vehicle = await makeVehicle(t.db, { dealershipId: ours });
    await rep.post("/api/test-drives", { ...newClient(), vehicleType: "vehicle", vehicleId: vehicle.id });
    return rep.put(`/api/vehicles/${vehicle.id}/test-drive-status`, { status: "available" });
  },
  "GET /api/dealerships/:id/test-drive-units": async () => {
    await makeUnit(t.db, { dealershipId: ours });
    return rep.get(`/api/dealerships/${ours}/test-drive-units`);
  },
  "POST /api/dealerships/:id/test-drive-units": () =>
    manager.post(`/api/dealerships/${ours}/test-drive-units`, { year: "2025", make: "Kia", model: "EV6", stockNumber: "ANS-U1" }),
  "DELETE /api/test-drive-units/:id": async () => manager.delete(`/api/test-drive-units/${(await makeUnit(t.db, { dealershipId: ours })).id}`),
  "PUT /api/test-drive-units/:id/status": async () => {
    const unit = await makeUnit(t.db, { dealershipId: ours });
    await rep.post("/api/test-drives", { ...newClient(), vehicleType: "tdu", tduId: unit.id });
    return rep.put(`/api/test-drive-units/${unit.id}/status`, { status: "available" });
  },
  "POST /api/test-drives": () => rep.post("/api/test-drives", { ...newClient(), vehicleType: "manual", stockNumber: "M-1", make: "Ford", model: "Escape" }),
  "GET /api/test-drives": async () => {
    await rep.post("/api/test-drives", { ...newClient(), clientType: "existing", leadId: leadWithAppointment, vehicleType: "manual", stockNumber: "M-2", vehicleDriven: "Mazda 3" });
    return rep.get(`/api/test-drives?leadId=${leadWithAppointment}`);
  },
  "GET /api/dealerships/:id/test-drives": async () => {
    await newTestDrive();
    return manager.get(`/api/dealerships/${ours}/test-drives`);
  },
  "GET /api/test-drives/:id": async () => manager.get(`/api/test-drives/${await newTestDrive()}`),
  "PATCH /api/test-drives/:id": async () => manager.patch(`/api/test-drives/${await newTestDrive()}`, { notes: "Liked the ride", testDriveTime: "15:30" }),
  "DELETE /api/test-drives/:id": async () => manager.delete(`/api/test-drives/${await newTestDrive()}`),
  "PATCH /api/test-drives/:id/status": async () => manager.patch(`/api/test-drives/${await newTestDrive()}/status`, { status: "no_show" }),
  "POST /api/test-drives/:id/return": async () => {
    const taken = await rep.post("/api/test-drives", { ...newClient(), vehicleType: "manual", stockNumber: "M-3", vehicleDriven: "Kia Soul" });
    return rep.post(`/api/test-drives/${taken.json<{ id: string }>().id}/return`);
  },
  "GET /api/dealerships/:id/test-drives/analytics/:days": async () => {
    await makeTestDrive(t.db, { dealershipId: ours, takenOutBy: repUser.id, takenOutAt: new Date(Date.now() - 3_600_000), returnedAt: new Date() });
    return manager.get(`/api/dealerships/${ours}/test-drives/analytics/7`);
  },
  "GET /api/dealerships/:id/sales-rep-analytics/:days": async () => {
    await makeTestDrive(t.db, { dealershipId: ours, takenOutBy: repUser.id, takenOutAt: new Date(Date.now() - 3_600_000) });
    return manager.get(`/api/dealerships/${ours}/sales-rep-analytics/30`);
  },

  // Lead intake and CSV (issue 14)
  "GET /api/dealerships/:id/intake/credentials": async () => {
    await intakeCredential();
    return manager.get(`/api/dealerships/${ours}/intake/credentials`);
  },
  "POST /api/dealerships/:id/intake/credentials": () => manager.post(`/api/dealerships/${ours}/intake/credentials`, { name: "Website" }),
  "POST /api/dealerships/:id/intake/credentials/:credentialId/rotate": async () =>
    manager.post(`/api/dealerships/${ours}/intake/credentials/${(await intakeCredential()).credential.id}/rotate`),
  "DELETE /api/dealerships/:id/intake/credentials/:credentialId": async () =>
    manager.delete(`/api/dealerships/${ours}/intake/credentials/${(await intakeCredential()).credential.id}`),
  "GET /api/dealerships/:id/intake/documents": async () => {
    await postAdf((await intakeCredential()).secret);
    return manager.get(`/api/dealerships/${ours}/intake/documents`);
  },
  "POST /api/intake/adf": async () => postAdf((await intakeCredential()).secret),
  "POST /api/dealerships/:id/leads/import/preview": () => uploadCsv(`/api/dealerships/${ours}/leads/import/preview`),
  "POST /api/dealerships/:id/leads/import": () => uploadCsv(`/api/dealerships/${ours}/leads/import`),
  "GET /api/dealerships/:id/leads/export": () => manager.get(`/api/dealerships/${ours}/leads/export`),
  "GET /api/openapi.json": () => anonymous(t.app).get("/api/openapi.json"),
  "GET /api/docs": () => anonymous(t.app).get("/api/docs"),
  "GET /api/docs/start.js": () => anonymous(t.app).get("/api/docs/start.js"),
  "GET /api/docs/redoc.js": () => anonymous(t.app).get("/api/docs/redoc.js"),
  "POST /api/leads/:id/tasks": () => rep.post(`/api/leads/${leadWithAppointment}/tasks`, { type: "call", dueAt: `${tomorrow}T10:00`, note: "Ask about the trade-in" }),
  "GET /api/leads/:id/tasks": async () => {
    await newTask();
    return rep.get(`/api/leads/${leadWithAppointment}/tasks`);
  },
  "PATCH /api/tasks/:id": async () => rep.patch(`/api/tasks/${await newTask()}`, { status: "done" }),
  "GET /api/dealerships/:id/follow-up-rules": () => manager.get(`/api/dealerships/${ours}/follow-up-rules`),
  "PUT /api/dealerships/:id/follow-up-rules": () => manager.put(`/api/dealerships/${ours}/follow-up-rules`, { claimedNoContact: { minutes: 20 } }),
  "GET /api/dealerships/:id/settings": () => manager.get(`/api/dealerships/${ours}/settings`),
  "PUT /api/dealerships/:id/settings": () => manager.put(`/api/dealerships/${ours}/settings`, { website: "https://answer-motors.example", phone: "(416) 555-0100 ext. 12" }),
  "GET /api/dealerships/:id/first-run": () => manager.get(`/api/dealerships/${ours}/first-run`),
  "POST /api/dealerships/:id/first-run/dismiss": () => manager.post(`/api/dealerships/${ours}/first-run/dismiss`),
  "GET /api/dealerships/:id/distribution": () => manager.get(`/api/dealerships/${ours}/distribution`),
  "PUT /api/dealerships/:id/distribution": () => manager.put(`/api/dealerships/${ours}/distribution`, { mode: "round_robin", autoAssignAfterMinutes: 30 }),
  "GET /api/dealerships/:id/availability": () => manager.get(`/api/dealerships/${ours}/availability`),
  "PUT /api/dealerships/:id/availability": () => rep.put(`/api/dealerships/${ours}/availability`, { onFloor: false }),
  "GET /api/dealerships/:id/lost-reasons": () => rep.get(`/api/dealerships/${ours}/lost-reasons`),
  "PUT /api/dealerships/:id/lost-reasons": () => manager.put(`/api/dealerships/${ours}/lost-reasons`, ["Bought elsewhere", "Price too high"]),
  "GET /api/dealerships/:id/tasks": async () => {
    await newTask();
    return rep.get(`/api/dealerships/${ours}/tasks?scope=mine`);
  },
  "GET /api/dealerships/:id/agenda": async () => {
    await newTask();
    return rep.get(`/api/dealerships/${ours}/agenda?date=${tomorrow}`);
  },
  "POST /api/dealerships/:id/api-tokens": () => manager.post(`/api/dealerships/${ours}/api-tokens`, { name: "Reporting", role: "sales", expiresAt: "2099-01-01T00:00:00Z" }),
  "GET /api/dealerships/:id/api-tokens": async () => {
    await manager.post(`/api/dealerships/${ours}/api-tokens`, { name: "Website", role: "frontDesk" });
    return manager.get(`/api/dealerships/${ours}/api-tokens`);
  },
  "DELETE /api/dealerships/:id/api-tokens/:tokenId": async () => {
    const created = (await manager.post(`/api/dealerships/${ours}/api-tokens`, { name: "Old", role: "sales" })).json<{ id: string }>();
    return manager.delete(`/api/dealerships/${ours}/api-tokens/${created.id}`);
  },
  "POST /api/dealerships/:id/webhooks": async () => {
    // A public address written as such (no DNS); turned off at once, so nothing is ever sent to it.
    const response = await manager.post(`/api/dealerships/${ours}/webhooks`, { url: "https://93.184.215.14/showroom", events: ["lead.created"], description: "DMS" });
    await t.db.update(webhooks).set({ active: false });
    return response;
  },
  "GET /api/dealerships/:id/webhooks": async () => {
    await quietWebhook();
    return manager.get(`/api/dealerships/${ours}/webhooks`);
  },
  "PATCH /api/dealerships/:id/webhooks/:webhookId": async () =>
    manager.patch(`/api/dealerships/${ours}/webhooks/${(await quietWebhook()).id}`, { events: ["*"], description: "Everything" }),
  "DELETE /api/dealerships/:id/webhooks/:webhookId": async () => manager.delete(`/api/dealerships/${ours}/webhooks/${(await quietWebhook()).id}`),
  "GET /api/dealerships/:id/webhooks/:webhookId/deliveries": async () => {
    const { id } = await quietWebhook();
    await quietDelivery(id);
    return manager.get(`/api/dealerships/${ours}/webhooks/${id}/deliveries`);
  },
  "POST /api/dealerships/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver": async () => {
    const { id } = await quietWebhook();
    return manager.post(`/api/dealerships/${ours}/webhooks/${id}/deliveries/${await quietDelivery(id)}/redeliver`);
  },
};

const TEMPLATE = { name: "First contact", subject: "Your {{vehicle}}", body: "Hi {{firstName}},\n{{repName}}" };

/** A template of ours (issue 26). */
async function emailTemplate(): Promise<string> {
  return (await manager.post(`/api/dealerships/${ours}/email-templates`, TEMPLATE)).json<{ id: string }>().id;
}

/** A webhook whose secret no key decrypts: its deliveries fail before anything is sent (no network in tests). */
async function quietWebhook(): Promise<{ id: string }> {
  const [row] = await t.db.insert(webhooks).values({ dealershipId: ours, url: "https://93.184.215.14/quiet", events: ["lead.created"], secret: "unreadable" }).returning();
  return row!;
}

async function quietDelivery(webhookId: string): Promise<string> {
  const id = `msg_${webhookId}`;
  await t.db.insert(webhookDeliveries).values({ id, webhookId, eventType: "lead.created", body: "{}", status: "failed", attempts: 3, lastStatusCode: 500, lastResponse: "down" });
  return id;
}

async function newTask(): Promise<string> {
  const created = await rep.post(`/api/leads/${leadWithAppointment}/tasks`, { type: "email", dueAt: `${tomorrow}T11:00` });
  if (created.statusCode !== 201) throw new Error(`task failed: ${created.statusCode} ${created.body}`);
  return created.json<{ id: string }>().id;
}

async function intakeCredential(): Promise<{ credential: { id: string }; secret: string }> {
  const created = await manager.post(`/api/dealerships/${ours}/intake/credentials`, { name: "Provider" });
  if (created.statusCode !== 201) throw new Error(`credential failed: ${created.statusCode} ${created.body}`);
  return created.json();
}

function postAdf(secret: string) {
  const xml = "<adf><prospect><customer><contact><name part=\"first\">Ada</name><name part=\"last\">Dee</name></contact></customer></prospect></adf>";
  return anonymous(t.app).request({ method: "POST", url: "/api/intake/adf", headers: { "content-type": "application/xml", authorization: `Bearer ${secret}` }, payload: xml });
}

function uploadCsv(url: string) {
  return manager.request({ method: "POST", url, headers: { "content-type": "text/csv" }, payload: "First Name,Last Name\nAda,Lovelace\n" });
}

/** A browser's PushSubscription JSON on a known push service (a P-256 key made here; nothing is sent in this test). */
function browserPush(name: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${encodeURIComponent(name)}`,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

function newClient() {
  return { dealershipId: ours, clientType: "new", firstName: "Rhea", lastName: "Sponse", email: freshEmail("driver"), phone: "416-555-0142" };
}

async function newTestDrive(): Promise<string> {
  return (await makeTestDrive(t.db, { dealershipId: ours, createdBy: managerUser.id, testDriveDate: tomorrow, testDriveTime: "10:00" })).id;
}

function platformDealership() {
  return {
    name: "Platform Motors",
    address: "9 Lot Rd",
    phone: "416-555-0190",
    email: "hello@platform-motors.example",
    website: "https://platform-motors.example",
    adminEmail: freshEmail("first-manager"),
    adminFirstName: "Fay",
    adminLastName: "Manager",
  };
}

async function platformDealershipId(): Promise<string> {
  const response = await admin.post("/api/platform/dealerships", platformDealership());
  if (response.statusCode !== 201) throw new Error(`dealership create failed: ${response.statusCode} ${response.body}`);
  return response.json<{ dealership: { id: string } }>().dealership.id;
}

/** What a non-JSON route answers instead of a body to validate. */
const NOT_JSON_ANSWERS: Record<NotJsonRoute, (response: LightMyRequestResponse) => void> = {
  "GET /api/login": (response) => {
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/auth");
  },
  "GET /api/calendar/:token.ics": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/calendar/);
    expect(response.body).toMatch(/^BEGIN:VCALENDAR/);
  },
  "GET /api/dealerships/:id/leads/export": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.body).toContain("First Name,Last Name,Email");
  },
  "GET /api/avatars/:file": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/webp");
  },
  "DELETE /api/dealerships/:id/calendar-feed": (response) => {
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe("");
  },
  "GET /api/docs": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain('<script src="/api/docs/redoc.js"></script>');
  },
  "GET /api/docs/start.js": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  },
  "GET /api/docs/redoc.js": (response) => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  },
};

/** The schema's complaints about a body, one readable line each (empty when it fits). */
function problems(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
}

/**
 * Paths inside a schema where an object lets unknown keys through (anything but z.strictObject): there, a leaked
 * field would pass unnoticed.
 */
function looseObjects(schema: z.ZodType, at = "(body)"): string[] {
  const def = schema._zod.def as unknown as {
    type: string;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
    in?: z.ZodType;
    out?: z.ZodType;
  };
  switch (def.type) {
    case "object": {
      const strict = def.catchall?._zod.def.type === "never";
      const inner = Object.entries(def.shape ?? {}).flatMap(([key, value]) => looseObjects(value, `${at}.${key}`));
      return strict ? inner : [at, ...inner];
    }
    case "array":
      return looseObjects(def.element!, `${at}[]`);
    case "nullable":
    case "optional":
    case "default":
    case "readonly":
      return looseObjects(def.innerType!, at);
    case "union":
      return def.options!.flatMap((option) => looseObjects(option, at));
    case "pipe":
      return [...looseObjects(def.in!, at), ...looseObjects(def.out!, at)];
    default:
      return [];
  }
}

describe("the response schemas", () => {
  it("cover every registered API route, or name why it answers no JSON", () => {
    const covered = new Set<string>([...Object.keys(SCHEMAS), ...Object.keys(NOT_JSON)]);
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.filter((route) => !covered.has(route))).toEqual([]);
  });

  it("name only routes the app registers", () => {
    const registered = new Set(routes);
    expect([...Object.keys(SCHEMAS), ...Object.keys(NOT_JSON)].filter((route) => !registered.has(route))).toEqual([]);
  });

  it("give no route two schemas in different areas", () => {
    const keys = Object.values(AREAS).flatMap((area) => Object.keys(area));
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    expect(Object.keys(NOT_JSON).filter((key) => key in SCHEMAS)).toEqual([]);
  });

  it("are strict objects all the way down, so an undeclared field fails", () => {
    const loose = Object.entries(SCHEMAS).flatMap(([route, schema]) => looseObjects(schema).map((path) => `${route} ${path}`));
    expect(loose).toEqual([]);
  });

  it("refuse a user answer that carries the password hash", async () => {
    const user = (await manager.get("/api/user")).json<Record<string, unknown>>();
    expect(problems(currentUserSchema, user)).toEqual([]);
    expect(problems(currentUserSchema, { ...user, password: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA" })).toEqual([
      '(body): Unrecognized key: "password"',
    ]);
  });
});

describe("every JSON route", () => {
  for (const [route, schema] of Object.entries(SCHEMAS) as Array<[JsonRoute, z.ZodType]>) {
    it(`answers ${route} as its schema says`, async () => {
      const response = await CALLS[route]();
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
      expect(response.statusCode, response.body).toBeLessThan(300);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      const body: unknown = response.json();
      // An empty list would prove nothing about its entries: the seed gives every list at least one.
      if (Array.isArray(body)) expect(body.length).toBeGreaterThan(0);
      expect(problems(schema, body)).toEqual([]);
    });
  }
});

describe("every route that answers no JSON", () => {
  for (const [route, reason] of Object.entries(NOT_JSON) as Array<[NotJsonRoute, string]>) {
    it(`answers ${route} with ${reason}`, async () => {
      NOT_JSON_ANSWERS[route](await CALLS[route]());
    });
  }
});

describe("the hand-written response types that remain", () => {
  // appointment.ts and team.ts still declare these interfaces beside their request schemas (the server uses them);
  // tsc holds them equal to the schemas until they are replaced by the inferred types (decision 053).
  it("match the schemas the client's types come from", () => {
    expectTypeOf<appointmentRequests.Appointment>().toEqualTypeOf<Appointment>();
    expectTypeOf<appointmentRequests.AppointmentDay>().toEqualTypeOf<appointmentShapes.AppointmentDay>();
    expectTypeOf<appointmentRequests.CalendarFeedInfo>().toEqualTypeOf<appointmentShapes.CalendarFeedInfo>();
    expectTypeOf<appointmentRequests.CalendarFeedCreated>().toEqualTypeOf<appointmentShapes.CalendarFeedCreated>();
    expectTypeOf<teamRequests.InviteLookup>().toEqualTypeOf<teamShapes.InviteLookup>();
    expectTypeOf<teamRequests.Invitation>().toEqualTypeOf<teamShapes.Invitation>();
    expectTypeOf<teamRequests.DealershipMember>().toEqualTypeOf<teamShapes.DealershipMember>();
    expectTypeOf<teamRequests.EmailTrigger>().toEqualTypeOf<emailNotificationShapes.EmailTrigger>();
    expectTypeOf<teamRequests.EmailSubscription>().toEqualTypeOf<emailNotificationShapes.EmailSubscription>();
    // The server's user carries Dates where JSON carries strings; the fields are the same ones.
    expectTypeOf<keyof SessionUser>().toEqualTypeOf<keyof CurrentUser>();
  });
});
