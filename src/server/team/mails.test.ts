import { describe, expect, it } from "vitest";
import { invitationMail, verificationCodeMail } from "./mails";

// The team e-mails: both parts present, everything a user typed escaped in the HTML.

describe("the invitation e-mail", () => {
  const mail = invitationMail({
    appUrl: "https://showroom.example",
    to: "o'neil+sales@example.com",
    firstName: "<b>Ivy</b>",
    dealershipName: `Tom & Jerry's "Autos" <script>alert(1)</script>`,
    dealershipId: "d1",
    role: "frontDesk",
    inviterName: "Morgan <Manager>",
    expiresAt: new Date("2026-12-01T12:00:00Z"),
    hasAccount: false,
  });

  it("has a subject, a text part and an HTML part naming the dealership and role", () => {
    expect(mail.subject).toBe(`You're invited to join Tom & Jerry's "Autos" <script>alert(1)</script> on Showroom`);
    expect(mail.text).toContain("as Front Desk");
    expect(mail.html).toContain("Front Desk");
    expect(mail.emailType).toBe("invitation");
    expect(mail.dealershipId).toBe("d1");
  });

  it("escapes names in the HTML and encodes the e-mail in the link", () => {
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("Tom &amp; Jerry&#39;s &quot;Autos&quot;");
    expect(mail.html).toContain("Morgan &lt;Manager&gt;");
    expect(mail.html).not.toContain("<b>Ivy</b>");
    expect(mail.text).toContain("https://showroom.example/auth?action=register&email=o%27neil%2Bsales%40example.com");
  });
});

describe("the verification e-mail", () => {
  it("carries the code in subject, text and HTML", () => {
    const mail = verificationCodeMail({ to: "a@example.com", code: "042917", dealershipName: "North", dealershipId: "d1" });
    expect(mail.subject).toContain("042917");
    expect(mail.text).toContain("Your verification code is 042917");
    expect(mail.html).toContain("042917");
    expect(mail.emailType).toBe("email_verification");
  });
});
