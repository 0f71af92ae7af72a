import { PHONE } from "./helpers/browser";
import { axeSweep } from "./helpers/axe-sweep";
import { useServerAndBrowser } from "./helpers/suite";

// Issue 12: axe-core on every route and every dialog, as each role sees them, at 375 px (tests/e2e/helpers/axe-sweep.ts).

axeSweep("375", PHONE, useServerAndBrowser());
