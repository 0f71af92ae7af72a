import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AuthProvider } from "./auth/auth-provider";
import { ToasterOnDemand } from "./components/toaster-on-demand";
import { queryClient } from "./lib/query-client";
import { AppRoutes, preloadFirstScreen } from "./routes";
import "./styles.css";

preloadFirstScreen(window.location.pathname);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
        <ToasterOnDemand />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
