// Whether this browser was signed in last time, so that the first screen's code can be fetched before the server
// has answered who this is (issue 12). Only a hint: the server's answer decides what is shown. The key's name
// contains "auth", so signing out removes it with the other personal keys (session-storage.ts).

const KEY = "showroom.auth-hint";

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    // Storage unavailable (private mode): the hint only saves time.
  }
}

export function probablySignedIn(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}
