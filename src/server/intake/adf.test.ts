import { describe, expect, it } from "vitest";
import { adfDateText, parseAdfDocument } from "./adf";

// What an ADF document says beyond the customer's name and contact is kept on the lead (issue 29): what each vehicle
// is to the customer (the one they want, trade in, lease or test drive), price, odometer, address, timeframe and the
// vendor's contact, and a request date that reads as a date.

const prospect = (inner: string, customer = "") => `<?xml version="1.0"?><adf><prospect>
  <requestdate>2026-03-02T10:15:00-05:00</requestdate>
  ${inner}
  <customer><contact><name part="first">Ines</name><name part="last">Faithful</name><phone>514-555-0123</phone>
    <address type="home"><street line="1">12 Rue Principale</street><street line="2">Suite 4</street><city>Montréal</city><regioncode>QC</regioncode><postalcode>H2X 1Y4</postalcode><country>CA</country></address>
  </contact>${customer}</customer>
  <vendor><vendorname>Northside Motors</vendorname><contact><name part="full">Jane Dealer</name><email>jane@northside.example</email><phone>+1 905 555 0100 x12</phone></contact></vendor>
  <provider><name>AutoTrader</name></provider>
</prospect></adf>`;

const descriptionOf = (xml: string) => parseAdfDocument(xml)[0]!.description ?? "";

describe("an ADF document's details on the lead", () => {
  it("names each vehicle by the customer's interest: the one they want, the trade-in, a lease, a test drive", () => {
    const text = descriptionOf(
      prospect(`
      <vehicle interest="buy" status="new"><year>2026</year><make>Toyota</make><model>RAV4</model><price type="quote" currency="CAD">38995</price></vehicle>
      <vehicle interest="trade-in" status="used"><year>2016</year><make>Mazda</make><model>3</model><odometer status="original" units="km">120000</odometer><price type="appraisal" currency="CAD">9500</price></vehicle>
      <vehicle interest="lease"><make>Honda</make><model>CR-V</model></vehicle>
      <vehicle interest="test-drive"><make>Subaru</make><model>Outback</model><stock>S-77</stock></vehicle>
      <vehicle interest="sell"><make>Ford</make><model>F-150</model><odometer units="mi" status="rolledover">20000</odometer></vehicle>`),
    );
    expect(text).toContain("Vehicle of interest: new 2026 Toyota RAV4 (quote price CAD 38,995)");
    expect(text).toContain("Trade-in: used 2016 Mazda 3 (odometer 120,000 km, appraisal price CAD 9,500)");
    expect(text).toContain("Wants to lease: Honda CR-V");
    expect(text).toContain("Test drive requested: Subaru Outback (stock S-77)");
    expect(text).toContain("Vehicle to sell: Ford F-150 (odometer 20,000 mi (rolledover))");
    // The trade-in is not the vehicle they want.
    expect(text).not.toContain("Vehicle of interest: used 2016 Mazda");
  });

  it("keeps the address, the timeframe, the vendor's contact and a readable request date", () => {
    const text = descriptionOf(
      prospect(
        `<vehicle><make>Kia</make><model>EV6</model></vehicle>`,
        `<timeframe><description>Within two weeks</description><earliestdate>2026-03-05</earliestdate><latestdate>2026-03-16</latestdate></timeframe>`,
      ),
    );
    expect(text).toContain("Address: 12 Rue Principale, Suite 4, Montréal, QC H2X 1Y4, CA");
    expect(text).toContain("Timeframe: Within two weeks, from 5 Mar 2026 by 16 Mar 2026");
    expect(text).toContain("Vendor: Northside Motors (contact: Jane Dealer, jane@northside.example, 905-555-0100 x12)");
    expect(text).toContain("Requested: 2 Mar 2026, 10:15 (UTC-05:00)");
    expect(text).not.toContain("2026-03-02T10:15");
  });

  it("reads dates as dates, and leaves text that is not a date as it came", () => {
    expect(adfDateText("2026-03-02T10:15:00-05:00")).toBe("2 Mar 2026, 10:15 (UTC-05:00)");
    expect(adfDateText("2026-03-02T10:15:00Z")).toBe("2 Mar 2026, 10:15 (UTC)");
    expect(adfDateText("2026-03-02T10:15:00+0530")).toBe("2 Mar 2026, 10:15 (UTC+05:30)");
    expect(adfDateText("2026-12-31")).toBe("31 Dec 2026");
    expect(adfDateText("next Tuesday")).toBe("next Tuesday");
    expect(adfDateText("2026-13-02")).toBe("2026-13-02");
  });
});
