import { ChevronLeft, ChevronRight } from "lucide-react";
import type * as React from "react";
import { DateLib, DayPicker, type DateLibOptions, type DayButtonProps, type Modifiers } from "react-day-picker";
import { cn } from "../../lib/utils";
import { buttonVariants } from "./button";

// A month calendar (react-day-picker) in the app's style. Days with the `marked` modifier get a small dot
// (e.g. days that have appointments). Dates are the browser's local calendar days; callers that work with a
// dealership's "YYYY-MM-DD" convert with a local-midnight Date and pass `today` explicitly.

function DayButton({ day, modifiers, className, children, ...props }: DayButtonProps) {
  void day;
  return (
    <button
      {...props}
      className={cn(
        "relative flex h-9 w-10 items-center justify-center rounded-lg text-sm font-normal tabular-nums outline-none transition-colors hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/40 sm:size-9",
        modifiers.today && !modifiers.selected && "bg-accent font-semibold text-accent-foreground",
        modifiers.selected && "bg-primary font-semibold text-primary-foreground hover:bg-primary/90",
        modifiers.outside && !modifiers.selected && "text-subtle-foreground",
        modifiers.disabled && "cursor-not-allowed text-muted-foreground/45 line-through decoration-muted-foreground/30 hover:bg-transparent",
        className,
      )}
    >
      {children}
      {modifiers.marked && (
        <span
          aria-hidden="true"
          className={cn("absolute bottom-1 left-1/2 size-1 -translate-x-1/2 rounded-full", modifiers.selected ? "bg-primary-foreground" : "bg-primary")}
        />
      )}
    </button>
  );
}

/**
 * "Monday, November 23, 2026": the day's number as it is shown, so that the button's spoken name contains its visible
 * text (WCAG 2.5.3; react-day-picker's "23rd" does not).
 */
export function dayButtonLabel(date: Date, modifiers: Modifiers, options?: DateLibOptions, dateLib?: DateLib): string {
  let label = (dateLib ?? new DateLib(options)).format(date, "EEEE, MMMM d, yyyy");
  if (modifiers.today) label = `Today, ${label}`;
  if (modifiers.selected) label = `${label}, selected`;
  return label;
}

export function Calendar({ className, classNames, showOutsideDays = true, labels, ...props }: React.ComponentProps<typeof DayPicker>) {
  return (
    <DayPicker
      showOutsideDays={showOutsideDays}
      labels={{ labelDayButton: dayButtonLabel, ...labels }}
      className={cn("w-fit select-none", className)}
      classNames={{
        root: "relative",
        months: "relative flex flex-col",
        month: "flex flex-col gap-3",
        month_caption: "flex h-9 items-center justify-center px-10",
        caption_label: "text-sm font-semibold",
        nav: "absolute inset-x-0 top-0 flex h-9 items-center justify-between",
        button_previous: cn(buttonVariants({ variant: "ghost", size: "icon-sm" }), "text-muted-foreground"),
        button_next: cn(buttonVariants({ variant: "ghost", size: "icon-sm" }), "text-muted-foreground"),
        month_grid: "border-collapse",
        weekdays: "flex",
        weekday: "flex h-8 w-10 items-center justify-center text-xs font-medium text-muted-foreground sm:size-9",
        week: "mt-1 flex",
        day: "p-0",
        hidden: "invisible",
        ...classNames,
      }}
      components={{
        Chevron: ({ orientation }) => (orientation === "left" ? <ChevronLeft className="size-4" /> : <ChevronRight className="size-4" />),
        DayButton,
      }}
      {...props}
    />
  );
}
