import { z } from "zod";

// The one message a page sends on /ws (spec part 2 §7 "WebSocket /ws"; decision 190), parsed by the server
// (src/server/realtime/socket-route.ts). Apart from ./realtime-messages.ts so that the page's live code does not load
// zod (issue 32).

/**
 * The one message a client sends: which dealership it is looking at. `userId` is accepted and ignored: the user is
 * the session cookie's, never what the page says.
 */
export const clientMessageSchema = z.object({
  type: z.literal("auth"),
  userId: z.unknown().optional(),
  dealershipId: z.string().trim().min(1).max(100),
});
export type ClientMessage = z.infer<typeof clientMessageSchema>;
