// The whole schema for drizzle-kit and the drizzle client. Tables live in one file per area.
export * from "./users";
export * from "./dealerships";
export * from "./leads";
export * from "./lead-duplicates";
export * from "./appointments";
export * from "./test-drives";
export * from "./notifications";
export * from "./platform";
export * from "./events";
export * from "./password-resets";
export * from "./intake";
export * from "./push";
