import { RadioGroup } from "radix-ui";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils";

/** A row of mutually exclusive choices drawn as one control (radio buttons underneath: arrow keys move the choice). */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string; icon?: ReactNode }>;
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <RadioGroup.Root
      aria-label={label}
      value={value}
      onValueChange={(v) => onChange(v as T)}
      orientation="horizontal"
      className={cn("grid gap-1 rounded-lg border bg-muted p-1", className)}
      style={{ gridTemplateColumns: `repeat(${options.length}, minmax(0, 1fr))` }}
    >
      {options.map((o) => (
        <RadioGroup.Item
          key={o.value}
          value={o.value}
          className="flex h-8 min-w-0 items-center justify-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-muted-foreground outline-none transition hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/30 data-[state=checked]:bg-card data-[state=checked]:text-foreground data-[state=checked]:shadow-sm [&_svg]:size-4 [&_svg]:shrink-0"
        >
          {o.icon}
          <span className="truncate">{o.label}</span>
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
