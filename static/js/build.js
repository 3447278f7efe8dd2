// The build this page was served by (its <meta name="domino-build">), and what
// the page does when a socket's first frame says the server runs another one
// (docs/protocol.md, "The build"): it reloads itself, at a moment that loses
// nothing. Not while something is dragged, a dialog or panel is open, a form
// field has the focus, or a page's own check (`whileBusy`) says no: the table's
// says no while a move waits for its answer or a tile is picked up. The reload
// brings the page back as it was: the table's URL and cookies seat the person
// again, with their hand.
//
// A page reloaded for a build that then meets it again within RELOAD_GUARD_MS
// (a proxy that gave it an old process during a deploy) does not reload again.

export const RELOAD_GUARD_MS = 60000;
export const BUSY_RETRY_MS = 500;
const GUARD_KEY = "domino-reloaded-for";

export function pageBuild() {
  return globalThis.document?.querySelector?.('meta[name="domino-build"]')?.content || null;
}

// A field someone may be typing in (a checkbox or a button with the focus is not).
const TYPING = "textarea, input:not([type]), input[type=text], input[type=search], input[type=email], input[type=password], input[type=number], input[type=url]";

const checks = [];
let wanted = null;

// `check()` true: the page must not reload now.
export function whileBusy(check) {
  checks.push(check);
}

function shown(el) {
  return !el.hidden && el.getClientRects().length > 0;
}

export function busy() {
  if (document.querySelector(".is-dragging, .dragging")) return true;
  if (document.querySelector("dialog[open]")) return true;
  if ([...document.querySelectorAll('[role="dialog"], [aria-modal="true"]')].some(shown)) return true;
  if (document.activeElement?.matches?.(TYPING)) return true;
  return checks.some((check) => check());
}

function reloadedFor(build) {
  try {
    const seen = JSON.parse(sessionStorage.getItem(GUARD_KEY) || "null");
    return !!seen && seen.build === build && Date.now() - seen.at < RELOAD_GUARD_MS;
  } catch {
    return false;
  }
}

// A socket's first frame named `build` (socket_client.js).
export function serverBuild(build) {
  const own = pageBuild();
  if (!build || !own || build === own || wanted !== null || reloadedFor(build)) return;
  wanted = build;
  const attempt = () => {
    if (busy()) {
      setTimeout(attempt, BUSY_RETRY_MS);
      return;
    }
    try {
      sessionStorage.setItem(GUARD_KEY, JSON.stringify({ build, at: Date.now() }));
    } catch {
      // no storage: the reload still happens
    }
    location.reload();
  };
  attempt();
}
