import { Search, X } from "lucide-react";
import { cn } from "../../lib/utils";
import { Input } from "./input";

/** A search box with its icon and a clear button once something is typed (lists and the calendar). */
export function SearchInput({
  value,
  onValueChange,
  placeholder,
  label,
  className,
}: {
  value: string;
  onValueChange: (value: string) => void;
  placeholder: string;
  label: string;
  className?: string;
}) {
  return (
    <div className={cn("relative flex-1", className)}>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" value={value} onChange={(e) => onValueChange(e.target.value)} placeholder={placeholder} aria-label={label} className="pl-9 pr-9" />
      {value && (
        <button
          type="button"
          onClick={() => onValueChange("")}
          className="absolute right-2 top-1/2 -translate-y-1/2 rounded p-1 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
          aria-label="Clear the search box"
        >
          <X className="size-4" />
        </button>
      )}
    </div>
  );
}
