import { useSyncExternalStore } from "react";
import { TOAST_DURATION_MS } from "../../shared/constants";

// A tiny toast store usable from anywhere (components, mutation callbacks, the query client).
// part 1 §9: one toast shown at a time — a new toast replaces the one on screen.

export type ToastVariant = "default" | "destructive" | "success";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; TOAST_DURATION_MS unless given. */
  duration?: number;
}

export interface ToastItem extends Required<Pick<ToastOptions, "title" | "variant" | "duration">> {
  id: string;
  description?: string;
  open: boolean;
}

const TOAST_LIMIT = 1;
/** How long a closed toast stays mounted so its exit animation can play. */
const REMOVE_DELAY_MS = 200;

let toasts: ToastItem[] = [];
/** Set once the session is found lost: its toast stays up and later toasts (a failed call's own) are dropped. */
let held = false;
let counter = 0;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  const id = `t${++counter}`;
  if (held) return { id, dismiss: () => undefined };
  const item: ToastItem = {
    id,
    title: options.title,
    description: options.description,
    variant: options.variant ?? "default",
    duration: options.duration ?? TOAST_DURATION_MS,
    open: true,
  };
  emit([item, ...toasts.filter((t) => t.id !== id)].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Shows this toast and then ignores every later one (the page is about to be left). */
export function toastAndHold(options: ToastOptions): void {
  toast(options);
  held = true;
}

export function dismissToast(id?: string): void {
  emit(toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => emit(toasts.filter((t) => t.open || (id !== undefined && t.id !== id))), REMOVE_DELAY_MS);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts in the store right now (for tests and non-React code). */
export function peekToasts(): ToastItem[] {
  return toasts;
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts);
}
