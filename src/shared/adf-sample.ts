// A sample ADF 1.0 document the Lead Intake tab offers a dealership's web provider to copy (issue 30): one prospect
// with the parts intake reads (the customer, the vehicle of interest, comments, the provider). It is tested to
// create a lead (src/server/intake/intake.test.ts), so what the screen shows is a document the server accepts.
export const ADF_SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<?adf version="1.0"?>
<adf>
  <prospect status="new">
    <id sequence="1" source="Your website">WEB-10042</id>
    <requestdate>2026-11-27T14:30:00-05:00</requestdate>
    <vehicle interest="buy" status="used">
      <year>2023</year><make>Toyota</make><model>RAV4</model><trim>XLE AWD</trim>
      <stock>U2231</stock>
    </vehicle>
    <customer>
      <contact primarycontact="1">
        <name part="first">Jane</name>
        <name part="last">Doe</name>
        <email>jane.doe@example.com</email>
        <phone type="voice" time="day">416-555-0142</phone>
      </contact>
      <comments>Is it still available? I can come in Saturday morning.</comments>
    </customer>
    <vendor><vendorname>Your dealership</vendorname></vendor>
    <provider><name part="full">Your website</name></provider>
  </prospect>
</adf>
`;

/** The address a provider posts ADF documents to, on this installation. */
export function intakeUrl(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/api/intake/adf`;
}
