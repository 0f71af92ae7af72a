import { useQueryClient } from "@tanstack/react-query";
import { Download, FileUp, Upload } from "lucide-react";
import { useId, useState } from "react";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import type { ImportLeadField, ImportPreview } from "../../shared/schemas/responses/intake";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { Label } from "../components/ui/label";
import { useCan } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { leadsRootKey } from "../leads/api";
import { commitImport, exportUrl, previewImport } from "./api";
import { formatPhone } from "../../shared/phone";

// Import and Export on the leads lists, for front desk and management (issue 14; decision 135). Import: choose a
// file, see the columns mapped and a few rows, fix the mapping, see every row's errors; nothing is saved until Import,
// and then every row or none.

const FIELD_LABELS: Record<ImportLeadField, string> = {
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  phone: "Phone",
  description: "Description",
  source: "Lead source",
};

export function LeadsCsvActions({ dealershipId, filters }: { dealershipId: string; filters: Record<string, string | undefined> }) {
  const allowed = useCan("importExportLeads");
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Upload />
        Import
      </Button>
      <Button variant="outline" asChild>
        <a href={exportUrl(dealershipId, filters)} download>
          <Download />
          Export
        </a>
      </Button>
      {open && <ImportLeadsDialog dealershipId={dealershipId} onClose={() => setOpen(false)} />}
    </>
  );
}

function ImportLeadsDialog({ dealershipId, onClose }: { dealershipId: string; onClose: () => void }) {
  const client = useQueryClient();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Record<string, ImportLeadField | null>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(next: File, nextMapping?: Record<string, ImportLeadField | null>) {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await previewImport(dealershipId, next, nextMapping);
      setPreview(answer);
      setMapping(answer.mapping);
    } catch (error) {
      setPreview(null);
      setProblem(serverMessage(error, "The file could not be read"));
    } finally {
      setBusy(false);
    }
  }

  async function importAll() {
    if (!file) return;
    setBusy(true);
    try {
      const result = await commitImport(dealershipId, file, mapping);
      await client.invalidateQueries({ queryKey: leadsRootKey(dealershipId) });
      toast({ title: "Leads Imported", description: result.message, variant: "success" });
      onClose();
    } catch (error) {
      setProblem(serverMessage(error, "Nothing was imported"));
    } finally {
      setBusy(false);
    }
  }

  function remap(column: string, field: ImportLeadField | null) {
    const next = { ...mapping };
    // A field comes from one column: choosing it here clears it elsewhere.
    for (const [c, f] of Object.entries(next)) if (field && f === field) next[c] = null;
    next[column] = field;
    setMapping(next);
    if (file) void load(file, next);
  }

  const canImport = Boolean(preview && preview.rows > 0 && preview.errors.length === 0 && Object.values(mapping).includes("firstName") && Object.values(mapping).includes("lastName"));
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import Leads</DialogTitle>
          <DialogDescription>
            A CSV file whose first row names the columns (up to 5,000 rows, 5 MB), separated by commas, semicolons or tabs, in
            UTF-8, UTF-16 or Windows-1252. Every row is checked first; if any row has an error, nothing is imported.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={fileId}>CSV file</Label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            className="text-sm file:mr-3 file:rounded-md file:border file:bg-card file:px-3 file:py-1.5 file:text-sm file:font-medium"
            onChange={(event) => {
              const chosen = event.target.files?.[0] ?? null;
              setFile(chosen);
              if (chosen) void load(chosen);
            }}
          />
        </div>
        {problem && (
          <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 p-3 text-sm text-destructive">
            {problem}
          </p>
        )}
        {preview && (
          <div className="grid gap-4">
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Columns</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {preview.columns.map((column) => (
                  <label key={column} className="flex items-center justify-between gap-2 rounded-md border p-2 text-sm">
                    <span className="min-w-0 truncate font-medium">{column}</span>
                    <select
                      aria-label={`Field for column ${column}`}
                      className="h-8 rounded-md border bg-card px-2 text-sm"
                      value={mapping[column] ?? ""}
                      onChange={(event) => remap(column, (event.target.value || null) as ImportLeadField | null)}
                    >
                      <option value="">Skip</option>
                      {(Object.keys(FIELD_LABELS) as ImportLeadField[]).map((field) => (
                        <option key={field} value={field}>
                          {FIELD_LABELS[field]}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </div>
            </fieldset>
            <p className="text-sm" aria-live="polite">
              {preview.rows} {preview.rows === 1 ? "row" : "rows"} in the file
              {preview.errors.length > 0 ? `, ${preview.errors.length} with errors` : ", all ready to import"}.
            </p>
            {preview.errors.length > 0 && (
              <ul className="grid max-h-40 gap-1 overflow-y-auto rounded-md border border-destructive/30 p-2 text-sm" aria-label="Rows with errors" tabIndex={0}>
                {preview.errors.map((error) => (
                  <li key={error.line}>
                    <span className="font-medium">Row {error.line}:</span>{" "}
                    {Object.entries(error.fields)
                      .map(([field, message]) => `${FIELD_LABELS[field as ImportLeadField] ?? field}: ${message}`)
                      .join("; ")}
                  </li>
                ))}
              </ul>
            )}
            {preview.sample.length > 0 && (
              <div className="overflow-x-auto rounded-md border" tabIndex={0} aria-label="First rows">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">The first rows as they will be imported</caption>
                  <thead className="bg-muted/50">
                    <tr>
                      <th className="px-2 py-1.5 font-medium">Row</th>
                      <th className="px-2 py-1.5 font-medium">Name</th>
                      <th className="px-2 py-1.5 font-medium">Email</th>
                      <th className="px-2 py-1.5 font-medium">Phone</th>
                      <th className="px-2 py-1.5 font-medium">Source</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.sample.map((row) => (
                      <tr key={row.line} className="border-t">
                        <td className="px-2 py-1.5">{row.line}</td>
                        <td className="px-2 py-1.5">
                          {row.firstName} {row.lastName}
                        </td>
                        <td className="px-2 py-1.5">{row.email ?? "—"}</td>
                        <td className="px-2 py-1.5">{row.phone ? formatPhone(row.phone) : "—"}</td>
                        <td className="px-2 py-1.5">{LEAD_SOURCE_LABELS[row.source]}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void importAll()} disabled={!canImport || busy}>
            <FileUp />
            {busy ? "Working..." : preview ? `Import ${preview.rows} ${preview.rows === 1 ? "lead" : "leads"}` : "Import"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
