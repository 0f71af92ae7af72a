// The frame every e-mail of the app shares (invitations, codes, resets, notifications, reminders), and the escaping
// for what is interpolated into its HTML. Infrastructure: it knows no area.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A simple, table-free layout that reads well in any mail client. */
export function mailLayout(title: string, bodyHtml: string): string {
  return `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px;border:1px solid #e4e4e7">
<div style="font-weight:700;font-size:18px;margin-bottom:24px">Showroom</div>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${bodyHtml}
</div></body></html>`;
}
