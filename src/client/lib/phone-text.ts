import { useEffect, useState } from "react";
import type * as Phone from "../../shared/phone";
import { northAmericanPhoneText } from "../../shared/phone-text";

// A stored phone as people read it on a screen that lists many (the dashboard's recent leads, the leads lists).
// libphonenumber-js (about 28 KiB gzip) stays out of the first screen's budget (issue 12): a North American number is
// written at once without it; another country's is shown in E.164 until the library has arrived, then in
// international format (shared/phone.ts formatPhone, decision 205).

type PhoneModule = typeof Phone;
let phoneModule: PhoneModule | undefined;
let loading: Promise<PhoneModule> | undefined;

function loadPhoneModule(): Promise<PhoneModule> {
  loading ??= import("../../shared/phone").then((m) => (phoneModule = m));
  return loading;
}

export function usePhoneText(stored: string | null | undefined): string {
  const quick = northAmericanPhoneText(stored);
  const [, setLoaded] = useState(false);
  const needsLibrary = Boolean(stored) && quick === null && phoneModule === undefined;
  useEffect(() => {
    if (!needsLibrary) return;
    let live = true;
    void loadPhoneModule().then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [needsLibrary]);
  if (quick !== null) return quick;
  return phoneModule ? phoneModule.formatPhone(stored) : (stored ?? "");
}
