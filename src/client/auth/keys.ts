// Query keys of the signed-in person (paths, part 1 §7).
export const USER_KEY = ["/api/user"] as const;
export const PLATFORM_ADMIN_STATUS_KEY = ["/api/user/platform-admin-status"] as const;
export const DEALERSHIPS_KEY = ["/api/dealerships"] as const;
