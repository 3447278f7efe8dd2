// Motion (docs/table-feel.md): Web Animations of at most 300 ms that never hold
// input back; none at all under prefers-reduced-motion; the next snapshot
// finishes whatever still runs.

const still = matchMedia("(prefers-reduced-motion: reduce)");
let running = [];

export function finishAll() {
  for (const a of running) a.finish();
  running = [];
}

function run(el, frames, options) {
  if (still.matches || !el?.animate) return;
  const a = el.animate(frames, { duration: 240, easing: "cubic-bezier(.2,.8,.3,1)", fill: "backwards", ...options });
  running.push(a);
}

const mid = (r) => [r.left + r.width / 2, r.top + r.height / 2];

// `el` comes from the screen rectangle `from` to where it is drawn. The
// `translate` property adds to the element's own transform (a raised tile);
// inside an SVG its lengths are the drawing's units.
export function fly(el, from, options = {}) {
  if (!el || !from) return;
  const [fx, fy] = mid(from);
  const [tx, ty] = mid(el.getBoundingClientRect());
  const k = el.ownerSVGElement?.getScreenCTM()?.a || 1;
  const dx = ((fx - tx) / k).toFixed(2);
  const dy = ((fy - ty) / k).toFixed(2);
  run(el, [{ translate: `${dx}px ${dy}px`, scale: "1.12" }, { translate: "0 0", scale: "1" }], options);
}

export function pulse(el) {
  run(el, [{ scale: "1" }, { scale: "1.3" }, { scale: "1" }], { duration: 300, fill: "none" });
}

// A word by a seat or over the felt ("passou", "Batida!"), gone after `ms`.
export function mark(text, rect, cls, ms = 1200) {
  const el = document.createElement("div");
  el.className = `feel-mark ${cls}`;
  el.setAttribute("aria-hidden", "true");
  el.textContent = text;
  const [x, y] = mid(rect);
  el.style.top = `${Math.round(y + scrollY)}px`;
  document.body.append(el);
  // Kept inside the screen's width: a mark by an edge seat never makes the page scroll sideways.
  const half = el.offsetWidth / 2 + 4;
  const room = document.documentElement.clientWidth;
  el.style.left = `${Math.round(Math.min(Math.max(x, half), room - half) + scrollX)}px`;
  run(el, [{ opacity: 0, scale: "0.6" }, { opacity: 1, scale: "1" }], { duration: 220 });
  setTimeout(() => el.remove(), ms);
}
