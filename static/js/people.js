// Who of your friends is online (docs/site.md, "Friends, blocking and who is
// online"): every page of a logged-in person opens ws/people/ (base.html), so
// that their friends see them online; a table page says which table
// (?room=<code>). The server sends this person's own list of friends with
// their presence ("friends") and each change ("presence"); any list of
// friends on the page ([data-friends]: the lobby, one's own profile) and a
// friend's profile ([data-friend] with [data-presence-text]) follow them.
// The words come from the list's data-label-* attributes and the challenge
// toast's <template> (the server's translations), so this script has no
// strings of its own.

import { notify } from "./alerts.js";
import { openSocket } from "./socket_client.js";
import { ready } from "./util.js";

let socket = null;

const STATES = new Set(["online", "table", "offline"]);

// The socket's address: a table page says which table; every page says when the
// server rendered it, so that a challenge of this person's that started since
// (while the page was loading) still sends it on (challenge_started).
function socketPath() {
  const query = new URLSearchParams();
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)\/$/);
  if (m) query.set("room", m[1]);
  const rendered = toasts()?.dataset.renderedAt;
  if (rendered) query.set("since", rendered);
  const text = query.toString();
  return text ? `/ws/people/?${text}` : "/ws/people/";
}

function labels() {
  const list = document.querySelector("[data-friends]");
  const d = list ? list.dataset : {};
  return {
    online: d.labelOnline || "online",
    table: d.labelTable || "at a table",
    offline: d.labelOffline || "offline",
    link: d.labelLink || "Go to the table",
    empty: d.labelEmpty || "",
  };
}

// One friend's presence, into `holder` ([data-friend]): its text and its link.
function showPresence(holder, friend, words) {
  const state = STATES.has(friend.state) ? friend.state : "offline";
  holder.dataset.presence = state;
  let text = holder.querySelector("[data-presence-text]");
  if (!text) {
    text = document.createElement("span");
    text.dataset.presenceText = "";
    holder.append(" ", text);
  }
  text.className = `presence presence-${state}`;
  text.textContent = words[state];
  let link = holder.querySelector("[data-presence-link]");
  if (friend.url && state === "table") {
    if (!link) {
      link = document.createElement("a");
      link.dataset.presenceLink = "";
      text.after(" ", link);
    }
    link.href = friend.url;
    link.textContent = words.link;
  } else if (link) {
    link.remove();
  }
}

function friendItem(friend, words) {
  const item = document.createElement("li");
  item.dataset.friend = friend.name;
  const name = document.createElement("a");
  name.href = `/players/${encodeURIComponent(friend.name)}/`;
  name.textContent = friend.name;
  item.append(name);
  showPresence(item, friend, words);
  return item;
}

// The whole list again (on connect, and when a friendship came or went).
function showFriends(friends) {
  const words = labels();
  for (const list of document.querySelectorAll("[data-friends]")) {
    const items = friends.map((f) => friendItem(f, words));
    if (!items.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.dataset.friendsEmpty = "";
      empty.textContent = words.empty;
      items.push(empty);
    }
    list.replaceChildren(...items);
  }
}

// ---------------------------------------------------------------- challenges
// A challenge made to this person shows on whatever page is open (a toast
// from the <template> base.html holds, docs/site.md "Challenges"); its buttons
// answer over this socket. An accepted one sends both people to the table.

function toasts() {
  return document.querySelector("[data-challenge-toasts]");
}

function fill(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ""));
}

function describe(challenge) {
  const d = toasts()?.dataset || {};
  const key = `labelPreset${challenge.preset.charAt(0).toUpperCase()}${challenge.preset.slice(1)}`;
  const clock = challenge.move_seconds ? fill(d.labelClock || "%(n)s s", { n: challenge.move_seconds }) : d.labelNoClock || "";
  const kind = challenge.rematch ? d.labelRematch : "";
  const rated = challenge.unrated === "pair_limit" ? d.labelUnrated : challenge.rated ? d.labelRated : d.labelFriendly;
  return [kind, d[key] || challenge.preset, clock, rated].filter(Boolean).join(" · ");
}

function showChallenge(challenge) {
  const box = toasts();
  const template = document.querySelector("[data-challenge-template]");
  if (!box || !template || box.querySelector(`[data-challenge-id="${challenge.id}"]`)) return;
  const toast = template.content.firstElementChild.cloneNode(true);
  toast.dataset.challengeId = String(challenge.id);
  toast.querySelector("[data-challenge-from]").textContent = challenge.from;
  toast.querySelector("[data-challenge-what]").textContent = describe(challenge);
  const answer = (type) => () => {
    for (const button of toast.querySelectorAll("button")) button.disabled = true;
    if (!socket?.send({ type, id: challenge.id, ref: challenge.id })) {
      for (const button of toast.querySelectorAll("button")) button.disabled = false;
    }
  };
  toast.querySelector('[data-action="challenge-accept"]').addEventListener("click", answer("challenge_accept"));
  toast.querySelector('[data-action="challenge-decline"]').addEventListener("click", answer("challenge_decline"));
  box.append(toast);
  notify(`${challenge.from}: ${describe(challenge)}`, `challenge-${challenge.id}`);
}

function dropChallenge(id) {
  toasts()?.querySelector(`[data-challenge-id="${id}"]`)?.remove();
}

// Refused because one's own table holds a match (``room``, ``url``): its link,
// and "leave the table and accept" (the table's own leave, then the accept).
function offerLeave(toast, msg) {
  toast.querySelector("[data-my-table]")?.remove();
  if (msg.code !== "already_seated" || typeof msg.room !== "string" || typeof msg.url !== "string" || !msg.url.startsWith("/r/")) return;
  const d = toasts()?.dataset || {};
  const holder = document.createElement("p");
  holder.dataset.myTable = msg.room;
  const link = document.createElement("a");
  link.href = msg.url;
  link.dataset.action = "go-to-table";
  link.textContent = d.labelGoToTable || msg.room;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button small";
  button.dataset.action = "challenge-leave-accept";
  button.textContent = d.labelLeaveAccept || "";
  button.addEventListener("click", () => {
    for (const b of toast.querySelectorAll("button")) b.disabled = true;
    const id = Number(toast.dataset.challengeId);
    if (!socket?.send({ type: "challenge_accept", id, ref: id, leave: msg.room })) {
      for (const b of toast.querySelectorAll("button")) b.disabled = false;
    }
  });
  holder.append(link, " ", button);
  toast.querySelector("[data-challenge-error]").after(holder);
}

function refused(msg) {
  const toast = toasts()?.querySelector(`[data-challenge-id="${msg.ref}"]`);
  if (!toast) return;
  const line = toast.querySelector("[data-challenge-error]");
  line.textContent = msg.message || "";
  line.hidden = false;
  for (const button of toast.querySelectorAll("button")) button.disabled = msg.code === "no_challenge";
  offerLeave(toast, msg);
}

function onMessage(msg) {
  if (msg.type === "challenge" && typeof msg.from === "string") {
    showChallenge(msg);
  } else if (msg.type === "challenge_gone") {
    dropChallenge(msg.id);
  } else if (msg.type === "challenge_started" && typeof msg.url === "string") {
    dropChallenge(msg.id);
    if (msg.url.startsWith("/r/")) location.assign(msg.url);
  } else if (msg.type === "error") {
    refused(msg);
  } else if (msg.type === "friends" && Array.isArray(msg.friends)) {
    showFriends(msg.friends);
  } else if (msg.type === "presence" && typeof msg.name === "string") {
    const words = labels();
    for (const holder of document.querySelectorAll("[data-friend]")) {
      if (holder.dataset.friend === msg.name) showPresence(holder, msg, words);
    }
  }
}

ready(() => {
  if (!document.body.hasAttribute("data-people")) return;
  socket = openSocket(socketPath(), { onMessage });
});
