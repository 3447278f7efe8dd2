// Drag and drop in the hand (from the games-portal rules): drag a tile onto a fitting end to play
// it, or along the hand to put it where you like (the order is kept per
// browser). Pointer events, so mouse, pen and touch alike; a tap or click stays
// a click. On touch screens the hand still scrolls sideways: a drag starts when
// the finger first moves up (towards the table), then it may go anywhere.

const THRESHOLD = 6;
const KEY = (code) => `domino.hand.${code}`;

// `tiles` in this browser's order: the stored order first, new tiles (drawn,
// or a new deal) after them in the server's order.
export function orderedHand(code, tiles) {
  let stored = [];
  try {
    stored = JSON.parse(localStorage.getItem(KEY(code)) || "[]");
  } catch {
    stored = [];
  }
  const rank = new Map(stored.map((tile, i) => [tile, i]));
  const known = tiles.filter((tile) => rank.has(tile)).sort((a, b) => rank.get(a) - rank.get(b));
  return [...known, ...tiles.filter((tile) => !rank.has(tile))];
}

export function saveHandOrder(code, tiles) {
  try {
    localStorage.setItem(KEY(code), JSON.stringify(tiles));
  } catch {
    /* private mode: the order lasts until the next render */
  }
}

// `ctx`: {ends(tile) -> ["A", "B", null…], start(tile), play(tile, end),
// reorder(tiles), cancel()}; `root` holds [data-hand] and [data-board].
export function initDrag(root, ctx) {
  let press = null; // {id, x, y, tile, el, touch}
  let drag = null; // {ghost, tile}
  let swallowClick = false;

  root.addEventListener("pointerdown", (event) => {
    const el = event.target.closest?.("[data-hand] [data-tile]");
    if (!el || (event.pointerType === "mouse" && event.button !== 0) || press) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, tile: el.dataset.tile, el, touch: event.pointerType !== "mouse" };
  });

  window.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!drag) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      if (press.touch && Math.abs(dx) > Math.abs(dy)) {
        press = null; // a sideways swipe scrolls the hand
        return;
      }
      begin(event);
    }
    event.preventDefault();
    move(event.clientX, event.clientY);
  }, { passive: false });

  window.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (drag) {
      drop(event.clientX, event.clientY);
      swallowClick = true;
      setTimeout(() => (swallowClick = false), 0);
    }
    press = null;
  });

  window.addEventListener("pointercancel", (event) => {
    if (!press || event.pointerId !== press.id) return;
    if (drag) finish(false);
    press = null;
  });

  // The click that follows a drop is not a choice.
  root.addEventListener("click", (event) => {
    if (swallowClick) {
      event.stopPropagation();
      event.preventDefault();
      swallowClick = false;
    }
  }, true);

  function begin(event) {
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.innerHTML = press.el.innerHTML;
    root.appendChild(ghost); // inside the table: its colours are the table's CSS variables
    drag = { ghost, tile: press.tile };
    press.el.classList.add("dragging");
    root.classList.add("is-dragging");
    ctx.start(press.tile);
    move(event.clientX, event.clientY);
  }

  function move(x, y) {
    drag.ghost.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
    const over = targetAt(x, y);
    for (const el of root.querySelectorAll("[data-end].over")) el.classList.remove("over");
    if (over?.end) root.querySelector(`[data-end="${over.end}"]`)?.classList.add("over");
  }

  // What a drop at (x, y) would do: {end} to play, {hand: index} to reorder.
  function targetAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const endEl = hit?.closest?.("[data-end]");
    if (endEl && root.contains(endEl)) return { end: endEl.dataset.end };
    const board = root.querySelector("[data-board]");
    const ends = ctx.ends(drag.tile);
    if (ends.length && inside(board, x, y)) {
      if (ends.length === 1) return { end: ends[0] ?? "" };
      // Two ends: the nearer end marker.
      let best = null;
      for (const el of root.querySelectorAll("[data-end]")) {
        const r = el.getBoundingClientRect();
        const d = Math.hypot(r.left + r.width / 2 - x, r.top + r.height / 2 - y);
        if (!best || d < best.d) best = { d, end: el.dataset.end };
      }
      if (best) return { end: best.end };
    }
    const hand = root.querySelector("[data-hand]");
    if (inside(hand, x, y, 24)) {
      const tiles = [...hand.querySelectorAll("[data-tile]")].filter((el) => el.dataset.tile !== drag.tile);
      let index = tiles.length;
      for (let i = 0; i < tiles.length; i++) {
        const r = tiles[i].getBoundingClientRect();
        if (x < r.left + r.width / 2) {
          index = i;
          break;
        }
      }
      return { hand: index, order: tiles.map((el) => el.dataset.tile) };
    }
    return null;
  }

  function drop(x, y) {
    const target = targetAt(x, y);
    const tile = drag.tile;
    finish(true);
    if (target && "end" in target) return ctx.play(tile, target.end || null);
    if (target && "hand" in target) {
      const order = [...target.order];
      order.splice(target.hand, 0, tile);
      return ctx.reorder(order);
    }
    ctx.cancel();
  }

  function finish(dropped) {
    drag?.ghost.remove();
    root.classList.remove("is-dragging");
    for (const el of root.querySelectorAll(".dragging, [data-end].over")) el.classList.remove("dragging", "over");
    drag = null;
    if (!dropped) ctx.cancel();
  }
}

function inside(el, x, y, margin = 0) {
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return x >= r.left - margin && x <= r.right + margin && y >= r.top - margin && y <= r.bottom + margin;
}
