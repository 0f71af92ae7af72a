// Constants of part 2 §9 for notifications, the real-time socket, the e-mail hand-off and shortcuts. They live with
// the client code that uses them (the server has its own side of the contract).

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Notifications list fresh 30 s; the count fresh 5 min and refetched every 5 min (not on focus, on reconnect). */
export const NOTIFICATIONS_STALE_MS = 30 * SECOND;
export const NOTIFICATION_COUNT_STALE_MS = 5 * MINUTE;
export const NOTIFICATION_COUNT_REFETCH_MS = 5 * MINUTE;
/** The popover shows at most this many; the badge caps at 99+. */
export const NOTIFICATIONS_SHOWN = 10;
export const BADGE_CAP = 99;

/** Socket reconnect: 3 s, doubling, at most 30 s. */
export const RECONNECT_BASE_MS = 3 * SECOND;
export const RECONNECT_MAX_MS = 30 * SECOND;

/** Live toasts are quiet during the first 30 s after the app loads and for events older than 10 s. */
export const LIVE_TOAST_QUIET_AFTER_LOAD_MS = 30 * SECOND;
export const LIVE_TOAST_MAX_EVENT_AGE_MS = 10 * SECOND;

/** E-mail hand-off: first check after 100 ms, wait 500 ms for a tab, close after 500 ms, navigate 1 s after that. */
export const TAB_FIRST_CHECK_DELAY_MS = 100;
export const TAB_CHECK_TIMEOUT_MS = 500;
export const HANDED_OFF_CLOSE_DELAY_MS = 500;
export const HANDED_OFF_FALLBACK_MS = 1000;

export const SHORTCUT_TOAST_MS = 1500;
