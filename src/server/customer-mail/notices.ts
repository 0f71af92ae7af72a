import { fullName } from "../../shared/format";
import type { Notices } from "../events/notices";
import { leadActivityMessage, leadUrl } from "../leads/notices";

// What customer e-mail's events say (decision 253): each is on the lead's timeline, so open pages of the lead refresh;
// a customer's reply also tells the lead's rep in the bell and by push.
export const customerMailNotices: Notices = {
  "email.sent": { socket: leadActivityMessage },
  "email.delivery_updated": { socket: leadActivityMessage },
  "email.received": {
    bell: (event) => {
      // The customer's reply (issue 26, decision 229): the lead's rep, while they may open it; nobody for a pool lead
      // (every rep could answer it: its timeline shows it to whoever opens it).
      const { lead, email } = event.payload;
      return {
        type: "email_received",
        title: "E-mail from a Customer",
        message: `${fullName(lead)}: ${email.subject}`,
        url: leadUrl(lead.id),
        leadId: lead.id,
        targetRoles: [],
        people: [lead.claimedBy],
      };
    },
    socket: leadActivityMessage,
  },
};
