import { Copy } from "lucide-react";
import { ADF_SAMPLE, intakeUrl } from "../../shared/adf-sample";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { toast } from "../lib/toast";

// What a dealership's web provider needs to send leads (issue 30): the full address, how to present the credential,
// and a sample document, each to copy, plus one message with all of it to forward. The words are the provider's
// (they build the sending side); the card's own sentences are the dealership's.

function copy(text: string, what: string) {
  if (!navigator.clipboard) {
    toast({ title: "Copy is not available here", description: "Select the text and copy it.", variant: "destructive" });
    return;
  }
  void navigator.clipboard.writeText(text).then(
    () => toast({ title: `${what} copied`, variant: "success" }),
    () => toast({ title: "Copy failed", description: "Select the text and copy it.", variant: "destructive" }),
  );
}

/** The whole brief for the provider, ready to paste into an e-mail (the secret goes separately, never in it). */
export function providerMessage(url: string): string {
  return [
    "Please send our website's leads to our CRM as ADF 1.0 XML documents (one or more <prospect> elements, up to 1 MB each):",
    "",
    `  POST ${url}`,
    "  Content-Type: application/xml",
    "  Authorization: Bearer <the secret we send you separately>",
    "  (or HTTP Basic authentication with any user name and the secret as the password)",
    "",
    'A document that was accepted answers 201 with {"message":"1 lead created",...}; a document that was refused answers',
    "400 with the reason, a wrong or revoked secret 401, a document over 1 MB 413. UTF-8, ISO-8859-1, Windows-1252 and",
    "UTF-16 are read.",
    "",
    "A sample document:",
    "",
    ADF_SAMPLE,
  ].join("\n");
}

export function IntakeInstructions() {
  const url = intakeUrl(window.location.origin);
  return (
    <Card>
      <CardHeader>
        <CardTitle>What to give your web provider</CardTitle>
        <CardDescription>
          Whoever runs your website or lead service sets up the sending side. They need three things: the address below, the
          secret of the credential you created for them, and the format (a sample is below). "Copy instructions" puts all of it,
          except the secret, into one message you can e-mail them. Send the secret separately.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-1.5">
          <p className="text-sm font-medium" id="intake-url-label">
            1. The address to send leads to
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <code aria-labelledby="intake-url-label" data-testid="intake-url" className="min-w-0 flex-1 break-all rounded-md border bg-muted/50 px-3 py-2 text-sm">
              {url}
            </code>
            <Button type="button" variant="outline" size="sm" className="w-fit" onClick={() => copy(url, "Address")}>
              <Copy aria-hidden="true" /> Copy address
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">They send each document to it as an HTTP POST of XML (Content-Type: application/xml).</p>
        </div>
        <div className="grid gap-1.5">
          <p className="text-sm font-medium">2. The credential's secret</p>
          <p className="text-sm text-muted-foreground">
            Shown once, when you create or rotate a credential above: one per provider, so you can cut one off without the others.
            They send it with every document, as a bearer token (Authorization: Bearer followed by the secret) or as the password of
            HTTP Basic authentication.
          </p>
        </div>
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm font-medium" id="adf-sample-label">
              3. The format: ADF 1.0 XML, like this sample
            </p>
            <Button type="button" variant="outline" size="sm" onClick={() => copy(ADF_SAMPLE, "Sample")}>
              <Copy aria-hidden="true" /> Copy sample
            </Button>
          </div>
          <pre aria-labelledby="adf-sample-label" tabIndex={0} data-testid="adf-sample" className="max-h-72 overflow-auto rounded-md border bg-muted/50 p-3 text-xs leading-relaxed">
            {ADF_SAMPLE}
          </pre>
          <p className="text-sm text-muted-foreground">
            Each &lt;prospect&gt; becomes a lead in New Leads, with the provider as its source; the vehicle, comments and request date go into its
            description.
          </p>
        </div>
        <div>
          <Button type="button" onClick={() => copy(providerMessage(url), "Instructions")}>
            <Copy aria-hidden="true" /> Copy instructions for your provider
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
