// Verifiable deals at the table (docs/rules.md, "Verifiable deals"): the next deal's
// commitment (room.next_fair) in small print, and this browser's client seed.
// For each new commitment a seated person's page sends a seed for that deal
// (`seed`, docs/protocol.md): 32 random hex digits, or the one the person typed
// (kept in this browser). A seed sent before the commitment would not count; one
// sent while a round is played would give the room a new version under a move
// in flight (refused as stale), so the page sends it when no round is being
// played: at once before a deal, and at the result for the deal after.

import { $, mySeat, snap } from "./state.js";
import { connected, send } from "./socket.js";

const KEY = "domino.fair.seed";
const SEED = /^[ -9;-~]{1,64}$/; // printable ASCII but ":"
let sentFor = null; // the commitment this page last sent a seed for
let wasSeated = false; // sitting down (again) starts with no seed on the seat

function ownSeed() {
  const value = localStorage.getItem(KEY) || "";
  return SEED.test(value) ? value : "";
}

export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function seated() {
  const seat = mySeat();
  const mine = seat === null ? null : snap().seats[seat];
  return !!mine && mine.kind === "human" && !mine.substitute;
}

// After every snapshot (and a typed seed): draw the commitment, send a seed for a
// new one.
export function fairAfter() {
  const box = $("[data-fair]");
  const next = snap()?.room?.next_fair;
  if (!box || !next) return;
  box.hidden = false;
  const code = $("[data-fair-commitment]", box);
  code.textContent = `${next.commitment.slice(0, 16)}…`;
  code.title = next.commitment;
  const sits = seated();
  if (sits && !wasSeated) sentFor = null;
  wasSeated = sits;
  $("[data-fair-seed]", box).hidden = !sits;
  const inPlay = !!snap().round && !snap().round.over;
  if (sits && !inPlay && connected() && sentFor !== next.commitment) {
    if (send("seed", { value: ownSeed() || randomSeed() })) sentFor = next.commitment;
  }
}

function onSubmit(event) {
  event.preventDefault();
  event.stopPropagation();
  const box = $("[data-fair]");
  const input = $("[data-fair-input]", box);
  const status = $("[data-fair-status]", box);
  const value = input.value;
  if (value && !SEED.test(value)) {
    status.textContent = box.dataset.badSeed;
    input.setAttribute("aria-invalid", "true");
    return;
  }
  input.removeAttribute("aria-invalid");
  if (value) localStorage.setItem(KEY, value);
  else localStorage.removeItem(KEY);
  status.textContent = value ? box.dataset.seedSaved : box.dataset.seedRandom;
  sentFor = null; // sent now between rounds, else at this round's result
  fairAfter();
}

export function initFair() {
  const form = $("[data-fair-form]");
  if (!form) return;
  $("[data-fair-input]").value = ownSeed();
  form.addEventListener("submit", onSubmit);
}
