import { cva } from "class-variance-authority";
import { CircleAlert, CircleCheck, Info, XIcon } from "lucide-react";
import { Toast as ToastPrimitive } from "radix-ui";
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from "../../../shared/constants";
import { dismissToast, useToasts, type ToastItem } from "../../lib/toast";
import { cn } from "../../lib/utils";
import { closeOpenDialog } from "./open-dialog";

// part 1 §9: one toast at a time, swipe right past 50 px to dismiss, F8 focuses the toast area, click to dismiss.
// At the bottom (bottom right from 640 px, above the phone's bottom bar: styles.css), not the top: the header's menus
// and each page's action buttons (Create New Lead, Add Vehicle, Book Test Drive, Send Reminder) are at the top, and a
// toast there sat over them for 4-5 s (decision 217).
// Call `toast({title, description, variant})` from src/client/lib/toast.ts anywhere; <Toaster/> is mounted once.

const toastVariants = cva(
  "group pointer-events-auto relative flex w-full cursor-pointer items-start gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-lg transition-all data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none",
  {
    variants: {
      variant: {
        default: "border-border bg-card text-foreground",
        destructive: "border-destructive bg-destructive text-destructive-foreground",
        success: "border-success/30 bg-card text-foreground",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

const icons = {
  default: <Info className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />,
  destructive: <CircleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />,
  success: <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />,
};

function ToastView({ item }: { item: ToastItem }) {
  return (
    <ToastPrimitive.Root
      open={item.open}
      duration={item.duration}
      type={item.variant === "destructive" ? "foreground" : "background"}
      onOpenChange={(open) => {
        if (!open) dismissToast(item.id);
      }}
      onClick={() => dismissToast(item.id)}
      onEscapeKeyDown={(event) => {
        // Escape is the open dialog's, not a toast's that came up over it; the toast stays (open-dialog.ts).
        if (event.target instanceof Element && event.target.closest("li[data-variant]")) return;
        if (closeOpenDialog()) event.preventDefault();
      }}
      data-variant={item.variant}
      className={cn(toastVariants({ variant: item.variant }))}
    >
      {icons[item.variant]}
      <div className="grid min-w-0 gap-0.5">
        <ToastPrimitive.Title className="text-sm font-semibold leading-snug">{item.title}</ToastPrimitive.Title>
        {item.description && (
          <ToastPrimitive.Description className={cn("text-sm leading-snug", item.variant === "destructive" ? "text-white/90" : "text-muted-foreground")}>
            {item.description}
          </ToastPrimitive.Description>
        )}
      </div>
      <ToastPrimitive.Close
        aria-label="Close"
        className={cn(
          "absolute right-2 top-2 rounded-md p-1 opacity-70 transition hover:opacity-100",
          item.variant === "destructive" ? "text-white hover:bg-white/15" : "text-muted-foreground hover:bg-muted",
        )}
      >
        <XIcon className="size-4" />
      </ToastPrimitive.Close>
    </ToastPrimitive.Root>
  );
}

export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX} duration={TOAST_DURATION_MS} label="Notification">
      {toasts.map((item) => (
        <ToastView key={item.id} item={item} />
      ))}
      <ToastPrimitive.Viewport
        hotkey={["F8"]}
        className="toast-viewport pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex max-h-dvh flex-col gap-2 p-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] outline-none sm:left-auto sm:right-4 sm:bottom-4 sm:w-full sm:max-w-sm sm:p-0"
      />
    </ToastPrimitive.Provider>
  );
}
