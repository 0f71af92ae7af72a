import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Import directions (ARCHITECTURE.md): client -> shared, server -> shared, never client <-> server;
// shared imports neither and stays free of Node and DOM.
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "drizzle/**", "coverage/**", "data/**", "bench/.data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/client/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([{ group: ["**/server/**", "node:*"], message: "The client imports only client and shared modules." }]),
    },
  },
  {
    files: ["src/server/**/*.ts"],
    rules: restrict([{ group: ["**/client/**"], message: "The server imports only server and shared modules." }]),
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: restrict([
      { group: ["**/client/**", "**/server/**"], message: "shared/ imports neither side." },
      { group: ["node:*"], message: "shared/ runs in the browser too: no Node imports." },
    ]),
  },
);
