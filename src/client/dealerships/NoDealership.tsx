import { Building2 } from "lucide-react";
import { EmptyState } from "../components/page-header";
import { Card } from "../components/ui/card";

/** For a signed-in person who belongs to no dealership (part 1 §2.3); every dealership page shows this. */
export function NoDealership() {
  return (
    <Card className="mx-auto mt-4 max-w-xl">
      <EmptyState icon={<Building2 />} title="No Dealership Access">
        <p>You have not been assigned to a dealership yet. Please contact your administrator to get access.</p>
        <p className="mt-3">If you were just added, refresh the page or log out and back in.</p>
      </EmptyState>
    </Card>
  );
}
