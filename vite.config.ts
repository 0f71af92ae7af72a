import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The SPA lives in src/client and builds to dist/client, which the server serves (src/server/app.ts).
export default defineConfig({
  root: fileURLToPath(new URL("./src/client", import.meta.url)),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL("./dist/client", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // React and the router change rarely and every screen needs them: one file that stays cached across releases.
        // Everything else is left to the bundler's automatic splitting, so each lazy page (src/client/routes.tsx)
        // downloads only the code it uses (issue 12, decision 070; bench/BUNDLE.md).
        codeSplitting: {
          groups: [{ name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 1 }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://localhost:5000", changeOrigin: false } },
  },
});
