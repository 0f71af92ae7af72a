import { z } from "zod";
import { leadSchema } from "./lead";
import { entityId, timestamp } from "./responses/fields";

// Possible duplicates and merging (issue 14; decisions 137-139): the banner's list, the merge dialog's request and
// the merge's answer. The dialog and the server validate with the same schema (ARCHITECTURE invariant 3).

/** Another lead of the same customer, as the banner shows it: who, where it stands, and what matched. */
export const possibleDuplicateSchema = leadSchema
  .pick({ id: true, firstName: true, lastName: true, email: true, phone: true, description: true, status: true, claimedBy: true, claimedByName: true, createdAt: true, source: true, sourceProvider: true })
  .extend({ matchedOn: z.array(z.enum(["email", "phone"])), linkedAt: timestamp });
export type PossibleDuplicate = z.infer<typeof possibleDuplicateSchema>;

/** The fields a merge chooses per side; "kept" is the lead whose page the merge starts from. */
export const MERGE_FIELDS = ["firstName", "lastName", "email", "phone", "description", "status", "claimedBy"] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

const side = z.enum(["kept", "merged"], { message: "Choose kept or merged" });

/**
 * POST /api/leads/{id}/merge: fold `mergeLeadId` into the lead of the path. Unnamed fields keep the kept lead's, but
 * the status, which is the furthest of the two unless named. The arrival time and the source are always the older
 * lead's: they are the customer's history, not a choice (decision 207).
 */
export const mergeLeadsSchema = z
  .object({
    mergeLeadId: z.string({ message: "Choose the lead to merge" }).trim().min(1, { message: "Choose the lead to merge" }).max(64),
    choices: z
      .object({
        firstName: side.default("kept"),
        lastName: side.default("kept"),
        email: side.default("kept"),
        phone: side.default("kept"),
        /** "both" appends the merged lead's description under the kept one's. */
        description: z.enum(["kept", "merged", "both"], { message: "Choose kept, merged or both" }).default("both"),
        /** Unnamed: the status further along (issue 29, decision 207), "Contacted" is not lost to a "Claimed". */
        status: side.optional(),
        claimedBy: side.default("kept"),
      })
      .strict()
      .default({ firstName: "kept", lastName: "kept", email: "kept", phone: "kept", description: "both", claimedBy: "kept" }),
  })
  .strict();
export type MergeLeadsInput = z.input<typeof mergeLeadsSchema>;
export type MergeChoices = z.output<typeof mergeLeadsSchema>["choices"];

/** The merge's answer: the kept lead as it now is, and what moved to it. */
export const mergeResultSchema = z.strictObject({
  lead: leadSchema,
  mergedLeadId: entityId,
  movedAppointments: z.number().int().nonnegative(),
  movedTestDrives: z.number().int().nonnegative(),
});
export type MergeResult = z.infer<typeof mergeResultSchema>;
