import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { SHORTCUT_HELP } from "./shortcuts";

// The '?' help dialog (part 2 §2 Keyboard shortcuts): every shortcut and what it does.

export function ShortcutsHelpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Keyboard Shortcuts</DialogTitle>
          <DialogDescription>Press a key anywhere outside a text field.</DialogDescription>
        </DialogHeader>
        <dl className="divide-y rounded-lg border text-sm">
          {SHORTCUT_HELP.map((s) => (
            <div key={s.keys} className="flex items-center gap-4 px-4 py-2.5">
              <dt className="w-12 shrink-0">
                <kbd className="inline-flex min-w-8 justify-center rounded-md border bg-muted px-2 py-0.5 font-mono text-xs font-semibold text-foreground shadow-sm">
                  {s.keys}
                </kbd>
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
