import { sql, type SQL } from "drizzle-orm";
import { EVENT_ACTIVITY, type ActivityType } from "../../shared/activity";
import { leadActivity } from "../db/schema/activity";

// The lead's timeline entries of events (issue 26, decision 218), written by the statement that writes the events
// (publishStatement, and the claim's own statement): one more CTE over the rows just inserted, so an entry commits with
// its change and its event, in the same round trip, whichever way the event was published. The dispatcher's
// subscribers run after the commit, in another transaction: they could not keep "in the same transaction".

const MAPPING = Object.entries(EVENT_ACTIVITY) as Array<[string, ActivityType]>;

/**
 * The CTE body that writes the timeline entries of the events `published` returned (its columns: id, type, version,
 * dealership_id, actor_id, payload, created_at). The lead is the payload's lead, or the appointment's or drive's; an
 * event without one (a walk-in's appointment) writes nothing. A new lead's entry notes its source and provider.
 */
export function activityOfPublished(published: SQL): SQL {
  const pairs = sql.join(
    MAPPING.map(([event, activity]) => sql`(${sql.raw(`'${event}'`)}, ${sql.raw(`'${activity}'`)})`),
    sql`, `,
  );
  return sql`insert into ${leadActivity} (lead_id, dealership_id, type, event_id, event_type, version, actor_id, at, payload)
    select l.id, p.dealership_id, m.activity_type, p.id, p.type, p.version, p.actor_id, p.created_at,
      case when p.type = 'lead.created' then p.payload || jsonb_build_object('source', l.source, 'provider', l.source_provider) else p.payload end
    from ${published} p
      join (values ${pairs}) as m(event_type, activity_type) on m.event_type = p.type
      -- a lead already gone (deleted in the same transaction) has no timeline left to write on
      join leads l on l.id = coalesce(p.payload->'lead'->>'id', p.payload->'appointment'->>'leadId', p.payload->'testDrive'->>'leadId',
        p.payload->'task'->>'leadId')
    where p.dealership_id is not null`;
}

