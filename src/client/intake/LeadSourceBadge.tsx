import { leadSourceLabel, type LeadSource } from "../../shared/lead-source";
import { Badge } from "../components/ui/badge";

/** Where a lead came from (issue 14): "Walk-in", "Phone", "Website", "Import", or an ADF provider's name. */
export function LeadSourceBadge({ lead }: { lead: { source: LeadSource; sourceProvider: string | null } }) {
  const label = leadSourceLabel(lead.source, lead.sourceProvider);
  return (
    <Badge variant={lead.source === "adf" ? "primary" : "outline"} className="max-w-40 truncate" title={`Source: ${label}`} data-testid="lead-source">
      <span className="sr-only">Source: </span>
      {label}
    </Badge>
  );
}
