import { eq } from "drizzle-orm";
import type { DealershipRole } from "../../src/shared/constants";
import { addDays, localToday } from "../../src/shared/dealership-clock";
import { issueFeed } from "../../src/server/appointments/calendar-feeds";
import { startSession } from "../../src/server/auth/sessions";
import { makeAppointment } from "../../src/server/db/factories-appointments";
import { makeLead } from "../../src/server/db/factories-leads";
import { makeTestDrive, makeUnit, makeVehicle } from "../../src/server/db/factories-test-drives";
import { makeDealership, makeUser, type MadeUser } from "../../src/server/db/factories";
import { dealershipInvites } from "../../src/server/db/schema/dealerships";
import { leadDuplicates } from "../../src/server/db/schema/lead-duplicates";
import { leads } from "../../src/server/db/schema/leads";
import { archiveLead } from "../../src/server/leads/deleted-archive";
import { notifications } from "../../src/server/db/schema/notifications";
import { tasks } from "../../src/server/db/schema/tasks";
import { leadNotes } from "../../src/server/db/schema/activity";
import { emailTemplates } from "../../src/server/db/schema/customer-mail";
import { webhookDeliveries, webhooks } from "../../src/server/db/schema/integrations";
import { createApiToken } from "../../src/server/integrations/api-tokens";
import { createCredential } from "../../src/server/intake/credentials";
import { dealershipTriggers } from "../../src/server/notifications/email-triggers";
import { grantPlatformAdminByEmail } from "../../src/server/platform/admins";
import type { Db } from "../../src/server/db/client";

// The small world of tests/api/permissions.test.ts: dealership "ours" (every id in a URL belongs to it) and
// dealership "theirs". Each call gets a caller of its own and the objects its URL and body name, made fresh, so a
// call that deletes, signs out or changes a password cannot change what a later call finds.

export const CALLERS = ["signed out", "sales", "sales, a colleague's", "front desk", "management", "platform admin", "other dealership"] as const;
export type Caller = (typeof CALLERS)[number];

const ROLE: Partial<Record<Caller, DealershipRole>> = { sales: "sales", "sales, a colleague's": "sales", "front desk": "frontDesk", management: "management" };

/** Callers whose objects are a colleague's: a sales associate reaching for another rep's client, drive or bell. */
const COLLEAGUES_OBJECTS: Caller[] = ["sales, a colleague's", "platform admin", "other dealership"];

export const PASSWORD = "password123";
const SESSION_POLICY = { idleMs: 3_600_000, absoluteMs: 86_400_000 };

export interface World {
  db: Db;
  ours: string;
  theirs: string;
  today: string;
}

export async function makeWorld(db: Db): Promise<World> {
  const ours = await makeDealership(db, { name: "Ours Motors" });
  const theirs = await makeDealership(db, { name: "Theirs Motors" });
  return { db, ours: ours.id, theirs: theirs.id, today: localToday(ours.timezone) };
}

/** One call's caller (a new account with that role) and its objects, each made the first time it is asked for. */
export class Call {
  private made = new Map<string, Promise<unknown>>();
  private static sequence = 0;
  readonly n = ++Call.sequence;

  constructor(
    readonly world: World,
    readonly caller: Caller,
  ) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.made.get(key) as Promise<T> | undefined;
    if (!p) this.made.set(key, (p = make()));
    return p;
  }

  /** The caller's account; null when signed out. Members of "ours" have their role there; "other dealership" is management of "theirs". */
  user(): Promise<MadeUser | null> {
    return this.once("user", async () => {
      const { db, ours, theirs } = this.world;
      if (this.caller === "signed out") return null;
      if (this.caller === "other dealership") return makeUser(db, { memberships: [{ dealershipId: theirs, role: "management" }] });
      const role = ROLE[this.caller];
      const user = await makeUser(db, role ? { memberships: [{ dealershipId: ours, role }] } : {});
      if (this.caller === "platform admin") await grantPlatformAdminByEmail(db, user.email);
      return user;
    });
  }

  /** The session cookie header, or undefined signed out: a new session in the table, not a sign-in. */
  async cookie(): Promise<string | undefined> {
    const user = await this.user();
    if (!user) return undefined;
    const { token } = await startSession(this.world.db, user.id, SESSION_POLICY);
    return `showroom.sid=${token}`;
  }

  /** Whose lead, appointment, test drive and notification: the caller's own, or a colleague's for some callers. */
  private async owner(): Promise<string> {
    return COLLEAGUES_OBJECTS.includes(this.caller) ? (await this.colleague()).id : (await this.user())!.id;
  }

  /** A sales associate of "ours": the subject of the team's and the platform's user routes. */
  colleague(): Promise<MadeUser> {
    return this.once("colleague", () => makeUser(this.world.db, { memberships: [{ dealershipId: this.world.ours, role: "sales" }] }));
  }

  /** Another platform admin: the subject of revoking platform admin. */
  otherAdmin(): Promise<MadeUser> {
    return this.once("otherAdmin", async () => {
      const user = await makeUser(this.world.db);
      await grantPlatformAdminByEmail(this.world.db, user.email);
      return user;
    });
  }

  /** An unclaimed new lead; the colleague's client for "sales, a colleague's". */
  lead() {
    return this.once("lead", async () =>
      makeLead(this.world.db, {
        dealershipId: this.world.ours,
        email: `permissions-${this.n}@example.com`,
        claimedBy: this.caller === "sales, a colleague's" ? (await this.colleague()).id : null,
      }),
    );
  }

  /** A lead of "ours" deleted a moment ago, as the API deletes one (decision 214): what a restore takes back. */
  deletedLead() {
    return this.once("deletedLead", async () => {
      const lead = await makeLead(this.world.db, { dealershipId: this.world.ours });
      await this.world.db.transaction(async (tx) => {
        await archiveLead(tx, lead.id, null);
        await tx.delete(leads).where(eq(leads.id, lead.id));
      });
      return lead;
    });
  }

  /** A second lead with the first one's e-mail, linked as its possible duplicate (decision 137): what a merge takes in. */
  async duplicate() {
    const lead = await this.lead();
    return this.once("duplicate", async () => {
      const other = await makeLead(this.world.db, { dealershipId: this.world.ours, email: lead.email });
      await this.world.db.insert(leadDuplicates).values({ leadId: other.id, duplicateOfId: lead.id, dealershipId: this.world.ours, matchedOn: "email" });
      return other;
    });
  }

  appointment() {
    return this.once("appointment", async () =>
      makeAppointment(this.world.db, { dealershipId: this.world.ours, userId: this.caller === "signed out" ? (await this.colleague()).id : await this.owner(), date: addDays(this.world.today, 3) }),
    );
  }

  /** A follow-up task on the lead, the owner's (issue 27). */
  task() {
    return this.once("task", async () => {
      const assigneeId = this.caller === "signed out" ? (await this.colleague()).id : await this.owner();
      const [row] = await this.world.db
        .insert(tasks)
        .values({ dealershipId: this.world.ours, leadId: (await this.lead()).id, type: "call", dueAt: new Date(Date.now() + 3_600_000), assigneeId })
        .returning();
      return row!;
    });
  }

  /** A note on the lead, the owner's (issue 26): its author may edit it. */
  note() {
    return this.once("note", async () => {
      const authorId = this.caller === "signed out" ? (await this.colleague()).id : await this.owner();
      const [row] = await this.world.db
        .insert(leadNotes)
        .values({ dealershipId: this.world.ours, leadId: (await this.lead()).id, authorId, body: "A note" })
        .returning();
      return row!;
    });
  }

  vehicle() {
    return this.once("vehicle", () => makeVehicle(this.world.db, { dealershipId: this.world.ours }));
  }

  unit() {
    return this.once("unit", () => makeUnit(this.world.db, { dealershipId: this.world.ours }));
  }

  /** A drive with the lead as its client, taken out an hour ago and not yet back. */
  testDrive() {
    return this.once("testDrive", async () =>
      makeTestDrive(this.world.db, {
        dealershipId: this.world.ours,
        leadId: (await this.lead()).id,
        takenOutBy: this.caller === "signed out" ? (await this.colleague()).id : await this.owner(),
        takenOutAt: new Date(Date.now() - 3_600_000),
      }),
    );
  }

  invite() {
    return this.once("invite", async () => {
      const [row] = await this.world.db
        .insert(dealershipInvites)
        .values({
          email: `permissions-invitee-${this.n}@example.com`,
          firstName: "Invited",
          lastName: "Person",
          dealershipId: this.world.ours,
          role: "sales",
          expiresAt: new Date(Date.now() + 7 * 86_400_000),
        })
        .returning();
      return row!;
    });
  }

  credential() {
    return this.once("credential", async () => (await createCredential(this.world.db, this.world.ours, `Provider ${this.n}`, (await this.colleague()).id)).row);
  }

  /** A bell notification of the owner's. */
  notification() {
    return this.once("notification", async () => {
      const userId = this.caller === "signed out" ? (await this.colleague()).id : await this.owner();
      const [row] = await this.world.db
        .insert(notifications)
        .values({ userId, dealershipId: this.world.ours, type: "lead_created", title: "New lead", message: "A new lead" })
        .returning();
      return row!;
    });
  }

  trigger() {
    return this.once("trigger", async () => (await dealershipTriggers(this.world.db, this.world.ours))[0]!);
  }

  /** A colleague's calendar feed token. */
  feedToken() {
    return this.once("feed", async () => (await issueFeed(this.world.db, { userId: (await this.colleague()).id, dealershipId: this.world.ours, scope: "mine" }, new Date())).token);
  }

  /** An API token of the dealership, made by a colleague (through the same module the route uses). */
  apiToken() {
    return this.once("apiToken", async () => {
      const colleague = (await this.colleague()).id;
      return (await this.world.db.transaction((tx) => createApiToken(tx, this.world.ours, colleague, { name: `Token ${this.n}`, role: "sales" }))).row;
    });
  }

  /** A webhook whose secret no key decrypts: a delivery of it fails before anything is sent. */
  webhook() {
    return this.once("webhook", async () => {
      const [row] = await this.world.db.insert(webhooks).values({ dealershipId: this.world.ours, url: "https://93.184.215.14/quiet", events: ["lead.created"], secret: "unreadable" }).returning();
      return row!;
    });
  }

  /** An e-mail template of the dealership (issue 26). */
  emailTemplate() {
    return this.once("emailTemplate", async () => {
      const [row] = await this.world.db.insert(emailTemplates).values({ dealershipId: this.world.ours, name: `Template ${this.n}`, subject: "Hello", body: "Hi {{firstName}}" }).returning();
      return row!;
    });
  }

  delivery() {
    return this.once("delivery", async () => {
      const webhookId = (await this.webhook()).id;
      await this.world.db.insert(webhookDeliveries).values({ id: `msg_${webhookId}`, webhookId, eventType: "lead.created", body: "{}", status: "failed", attempts: 3 });
      return `msg_${webhookId}`;
    });
  }

  /** A path parameter's value on this route. */
  async param(url: string, name: string): Promise<string> {
    switch (name) {
      case "id":
        if (url.startsWith("/api/dealerships/") || url.startsWith("/api/platform/dealerships/")) return this.world.ours;
        if (url === "/api/leads/:id/restore") return (await this.deletedLead()).id;
        if (url.startsWith("/api/leads/")) return (await this.lead()).id;
        if (url.startsWith("/api/appointments/")) return (await this.appointment()).id;
        if (url.startsWith("/api/notifications/")) return (await this.notification()).id;
        if (url.startsWith("/api/platform/invites/")) return (await this.invite()).id;
        if (url.startsWith("/api/platform/users/")) return (await this.colleague()).id;
        if (url.startsWith("/api/test-drive-units/")) return (await this.unit()).id;
        if (url.startsWith("/api/test-drives/")) return (await this.testDrive()).id;
        if (url.startsWith("/api/vehicles/")) return (await this.vehicle()).id;
        if (url.startsWith("/api/tasks/")) return (await this.task()).id;
        if (url.startsWith("/api/notes/")) return (await this.note()).id;
        throw new Error(`permissions world: no :id for ${url}`);
      case "userId":
        return url.startsWith("/api/platform/admins/") ? (await this.otherAdmin()).id : (await this.colleague()).id;
      case "inviteId":
        return (await this.invite()).id;
      case "credentialId":
        return (await this.credential()).id;
      case "triggerId":
        return (await this.trigger()).id;
      case "tokenId":
        return (await this.apiToken()).id;
      case "webhookId":
        return (await this.webhook()).id;
      case "templateId":
        return (await this.emailTemplate()).id;
      case "deliveryId":
        return this.delivery();
      case "otherId":
        return (await this.duplicate()).id;
      case "days":
        return "7";
      case "email":
        return (await this.invite()).email;
      case "token":
        return this.feedToken();
      case "file":
        // No picture was uploaded: found by nobody.
        return `${"a".repeat(21)}-${"b".repeat(22)}.webp`;
      default:
        throw new Error(`permissions world: no value for :${name} in ${url}`);
    }
  }

  /** The route's URL with every parameter filled, and the query a route cannot do without. */
  async url(method: string, url: string): Promise<string> {
    let filled = url;
    for (const [, name] of url.matchAll(/:([A-Za-z]+)/g)) filled = filled.replace(`:${name}`, encodeURIComponent(await this.param(url, name!)));
    switch (`${method} ${url}`) {
      case "GET /api/appointments":
      case "GET /api/test-drives":
        return `${filled}?leadId=${(await this.lead()).id}`;
      case "GET /api/dealerships/:id/appointments/days":
        return `${filled}?from=${this.world.today}&to=${addDays(this.world.today, 7)}`;
      case "GET /api/leads/:id/email-draft":
        return `${filled}?templateId=${(await this.emailTemplate()).id}`;
      default:
        return filled;
    }
  }

  /** A valid body for a write route (so a refusal is the permission's, not the body's), {} for the rest, none for GET. */
  async body(method: string, url: string): Promise<Record<string, unknown> | unknown[] | undefined> {
    if (method === "GET") return undefined;
    const { ours, today } = this.world;
    const fresh = `permissions-${this.n}`;
    switch (`${method} ${url}`) {
      case "POST /api/register":
        return { firstName: "Perm", lastName: "Tester", email: `${fresh}-register@example.com`, phone: "555-123-4567", password: "Correct-Horse-Battery-91", confirmPassword: "Correct-Horse-Battery-91", dealershipName: `${fresh} Motors` };
      case "POST /api/login": {
        const c = await this.colleague();
        return { email: c.email, password: c.password };
      }
      case "POST /api/user/current-dealership":
        return { dealershipId: ours };
      case "POST /api/dealerships/:id/appointments":
        return { title: "Test drive", firstName: "Perm", lastName: "Customer", email: "customer@example.com", phone: "555-123-4567", description: "", date: addDays(today, 5), time: "10:00", duration: 30, leadId: (await this.lead()).id };
      case "PATCH /api/appointments/:id/status":
        return { status: "arrived" };
      case "POST /api/leads/:id/tasks":
        return { type: "call", dueAt: `${addDays(today, 1)}T10:00` };
      case "PATCH /api/tasks/:id":
        return { status: "done" };
      case "POST /api/leads/:id/notes":
      case "PATCH /api/notes/:id":
        return { body: "Prefers e-mail" };
      case "POST /api/leads/:id/calls":
        return { outcome: "voicemail" };
      case "POST /api/leads/:id/emails":
        return { subject: "Your Tucson", body: "It is ready" };
      case "POST /api/dealerships/:id/email-templates":
      case "PUT /api/dealerships/:id/email-templates/:templateId":
        return { name: `Template ${fresh}`, subject: "Your {{vehicle}}", body: "Hi {{firstName}}" };
      case "PUT /api/dealerships/:id/follow-up-rules":
        return { appointmentNoShow: { enabled: false } };
      case "PUT /api/dealerships/:id/settings":
        return { website: `https://${fresh}.example` };
      case "PUT /api/dealerships/:id/distribution":
        return { mode: "off" };
      case "PUT /api/dealerships/:id/availability":
        return { onFloor: false };
      case "PUT /api/dealerships/:id/lost-reasons":
        return ["Bought elsewhere", "Price too high"];
      case "POST /api/dealerships/:id/api-tokens":
        return { name: `Permissions ${fresh}`, role: "sales" };
      case "POST /api/dealerships/:id/webhooks":
        // A public address written as such (no DNS), for an event this world never has: nothing is sent to it.
        return { url: "https://93.184.215.14/permissions", events: ["lead.unattended"] };
      case "PATCH /api/dealerships/:id/webhooks/:webhookId":
        return { description: "Changed", active: false };
      case "POST /api/dealerships/:id/calendar-feed":
        return { scope: "mine" };
      case "POST /api/dealerships/:id/leads":
        return { firstName: "Perm", lastName: "Lead", email: `${fresh}-lead@example.com`, phone: "555-123-4567", description: "Walk-in" };
      case "PATCH /api/leads/:id":
        return { firstName: "Perm", lastName: "Lead", email: `${fresh}-lead@example.com`, phone: "555-123-4567", description: "Edited", status: "contacted" };
      case "PATCH /api/leads/:id/status":
        return { status: "contacted" };
      case "POST /api/leads/:id/merge":
        return { mergeLeadId: (await this.duplicate()).id, choices: {} };
      case "PUT /api/dealerships/:id/speed-to-lead/settings":
        return { unattendedLeadMinutes: 20 };
      case "POST /api/dealerships/:id/invites":
        return { email: `${fresh}-invitee@example.com`, firstName: "Perm", lastName: "Invitee", role: "sales" };
      case "POST /api/auth/email-verification/request":
        return { email: (await this.invite()).email };
      case "POST /api/auth/email-verification/verify":
        return { email: (await this.invite()).email, code: "123456", firstName: "Perm", lastName: "Invitee", phone: "", password: "Correct-Horse-Battery-91", confirmPassword: "Correct-Horse-Battery-91" };
      case "PATCH /api/dealerships/:id/users/:userId/role":
      case "PUT /api/platform/dealerships/:id/users/:userId/role":
        return { role: "frontDesk" };
      case "PATCH /api/dealerships/:id/email-notifications/triggers/:triggerId":
        return { isActive: false };
      case "POST /api/dealerships/:id/email-notifications/subscriptions":
        return { userId: (await this.colleague()).id, triggerId: (await this.trigger()).id, isSubscribed: true };
      case "POST /api/dealerships/:id/vehicles":
        return { year: "2003", make: "Perm", model: "Car", stockNumber: `${fresh}-V`, condition: "used", price: 100, mileage: 5 };
      case "PUT /api/vehicles/:id/test-drive-status":
        return { status: "out", clientName: "Perm Client" };
      case "POST /api/dealerships/:id/test-drive-units":
        return { year: "2024", make: "Perm", model: "Unit", stockNumber: `${fresh}-U` };
      case "PUT /api/test-drive-units/:id/status":
        return { status: "available" };
      case "POST /api/test-drives":
        return { dealershipId: ours, clientType: "new", firstName: "Perm", lastName: "Client", email: `${fresh}-client@example.com`, phone: "416-555-0100", vehicleType: "manual", stockNumber: `${fresh}-M`, vehicleDriven: "Perm Car", status: "out" };
      case "PATCH /api/test-drives/:id":
        return { vehicleDriven: "Perm Car", stockNumber: `${fresh}-D`, testDriveDate: today, testDriveTime: "10:00", notes: "Edited" };
      case "PATCH /api/test-drives/:id/status":
        return { status: "completed" };
      case "PATCH /api/user/profile": {
        const user = (await this.user()) ?? (await this.colleague());
        return { firstName: "Perm", lastName: "Caller", email: user.email };
      }
      // The caller's real password: a wrong one would be a 401 about the password, not about the route.
      case "PATCH /api/user/password":
        return { currentPassword: PASSWORD, newPassword: "Correct-Horse-Battery-92" };
      case "POST /api/auth/2fa/verify-setup":
        return { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", token: "123456" };
      case "POST /api/auth/2fa/disable":
        return { password: PASSWORD, token: "123456" };
      case "POST /api/auth/2fa/regenerate-backup-codes":
        return { password: PASSWORD };
      case "POST /api/user/email-verification/confirm":
      case "POST /api/user/email-change/confirm":
        return { code: "123456" };
      case "POST /api/user/email-change/request":
        return { email: `${fresh}-moved@example.com`, currentPassword: PASSWORD };
      case "POST /api/auth/password-reset/request":
        return { email: `${fresh}-reset@example.com` };
      case "POST /api/auth/password-reset/confirm":
        return { token: "x".repeat(43), newPassword: "Correct-Horse-Battery-91", confirmPassword: "Correct-Horse-Battery-91" };
      case "POST /api/platform/test-email":
        return {};
      case "POST /api/platform/dealerships":
        return { name: `${fresh} Lot`, address: "1 Perm St", phone: "416-555-0100", email: "lot@example.com", website: "perm.example", adminEmail: `${fresh}-boss@example.com`, adminFirstName: "Perm", adminLastName: "Boss" };
      case "PUT /api/platform/dealerships/:id":
        return { name: "Ours Motors", address: "1 Perm St", phone: "416-555-0100", email: "lot@example.com", website: "perm.example" };
      case "POST /api/platform/dealerships/:id/invite":
        return { email: `${fresh}-platform-invitee@example.com`, role: "sales", firstName: "Perm", lastName: "Invitee" };
      case "PATCH /api/platform/users/:id": {
        const c = await this.colleague();
        return { firstName: "Perm", lastName: "User", email: c.email, phone: "416-555-0100" };
      }
      case "POST /api/platform/admins/grant":
        return { email: (await this.colleague()).email };
      case "POST /api/dealerships/:id/intake/credentials":
        return { name: `${fresh} Provider` };
      case "DELETE /api/push/subscriptions":
        return { endpoint: `https://fcm.googleapis.com/fcm/send/${fresh}` };
      case "POST /api/push/subscriptions":
        return {
          endpoint: `https://fcm.googleapis.com/fcm/send/${fresh}`,
          expirationTime: null,
          keys: { p256dh: "BI5N6bauSTJUOwI1CqIL8l5rgO8OCKzs07LtAZEFwPNb7CczA1ItYUx0wCWye3Z551rhCVdlltJLYmRrhwBj4uc", auth: "kn2POr-j22bp0aiGsY3wuA" },
          device: "Perm phone",
        };
      default:
        return method === "DELETE" ? undefined : {};
    }
  }
}
