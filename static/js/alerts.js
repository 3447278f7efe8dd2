// Turn alerts (docs/table-feel.md): "(Sua vez)" in the title, a badge on the
// tab's icon while the tab is hidden, a short vibration, and opt-in system
// notifications (your turn, a new round, someone joining your private room)
// while the tab is hidden. The sound switch silences them all; each has its
// own setting too, kept per browser.

import { soundOn } from "./sound.js";

const KEY = (name) => `domino.alert.${name}`;
// An alert's own setting: notifications are off until asked for, the others
// on until turned off.
export function own(name) {
  const value = localStorage.getItem(KEY(name));
  return name === "notify" ? value === "on" && window.Notification?.permission === "granted" : value !== "off";
}
export const alertOn = (name) => soundOn() && own(name);
let title = "";
let prefix = "";
let mine = false;

export function initAlerts(turnPrefix) {
  prefix = turnPrefix;
  title = document.title;
  document.addEventListener("visibilitychange", () => showTurn(mine));
}

export function setAlert(name, on) {
  try {
    localStorage.setItem(KEY(name), on ? "on" : "off");
  } catch {
    /* private mode */
  }
  showTurn(mine);
}

// Every render: the title and the icon follow whether it is the viewer's turn.
export function showTurn(turn) {
  mine = turn;
  const on = mine && alertOn("title");
  document.title = on ? prefix + title : title;
  for (const link of document.querySelectorAll("link[rel=icon][data-badge]")) {
    link.dataset.plain ||= link.getAttribute("href");
    link.href = on && document.hidden ? link.dataset.badge : link.dataset.plain;
  }
}

export function vibrate() {
  if (alertOn("vibrate") && navigator.userActivation?.hasBeenActive !== false) navigator.vibrate?.(120);
}

// Only after the page's button asked for (and got) the browser's permission.
export async function askNotify() {
  if (!window.Notification) return false;
  const answer = await Notification.requestPermission();
  setAlert("notify", answer === "granted");
  return answer === "granted";
}

export function notify(text, tag) {
  if (!document.hidden || !alertOn("notify") || !window.Notification || Notification.permission !== "granted") return;
  try {
    const icon = document.querySelector("link[rel=apple-touch-icon]")?.href;
    const n = new Notification(title || document.title, { body: text, tag, icon });
    n.addEventListener("click", () => (window.focus(), n.close()));
  } catch {
    /* Android Chrome: only a service worker may notify; the title and the vibration remain */
  }
}
