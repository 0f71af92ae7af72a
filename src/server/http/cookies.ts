// The session cookie's name. HTTP knows it (the web app's first screen asks whether one was sent); auth sets and reads it.
export const SESSION_COOKIE = "showroom.sid";
