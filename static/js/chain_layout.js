// Lays the chain out as a snake, in tile units (a tile is 2 x 1, a double 1 x 2
// when crosswise). Pure: no DOM. The first tile sits at the origin; the B arm
// runs right along row 0 and turns downwards at the right edge, the A arm runs
// left and turns upwards, so the two arms never meet whatever the length.
//
// Each arm is walked like a turtle: an open edge point and a direction. A tile
// goes straight on, or is a corner (its inner half in line, its outer half
// turned left or right). The player's stored bends (round.layout: chain index ->
// "left" | "right", the variants site's "ajustar a fila") make corners where
// they say, as long as the tile stays on the table and off the other tiles;
// otherwise the snake's own rule applies, so the chain never leaves the table.

const GAP = 0.08;
const EPS = 0.02;

function isDouble(tile) {
  const [a, b] = tile.split("-");
  return a === b;
}

function otherHalf(tile, n) {
  const [a, b] = tile.split("-").map(Number);
  return a === n ? b : a;
}

// Pick a row width (in units) that fills a box of this aspect ratio: with a
// chain `length` units long folded into rows of width W, the height is about
// 2 * length / W, and we want W / height to match the box. `zoom` > 1 (large
// tiles, docs/table-feel.md) shortens the comfortable row, so a short chain's
// tiles are drawn that much larger; a long chain still fills the box.
export function rowWidth(aspect, length, zoom = 1) {
  const a = Math.max(0.5, Math.min(aspect, 4));
  const balanced = a + Math.sqrt(a * a + 2 * a * length);
  const comfortable = Math.min(8 * a + 2, 22) / zoom;
  return Math.max(6, Math.min(Math.max(balanced, comfortable), 26));
}

// Directions in screen coordinates (y grows downwards).
const left = ([dx, dy]) => [dy, -dx];
const right = ([dx, dy]) => [-dy, dx];
const horizontal = (d) => d[1] === 0;

// The world rectangle of a box given in the turtle's frame: `along` the travel
// direction u from the edge point p, `across` along w.
function rect(p, u, w, along, across) {
  const xs = [];
  const ys = [];
  for (const a of along) {
    for (const c of across) {
      xs.push(p.x + u[0] * a + w[0] * c);
      ys.push(p.y + u[1] * a + w[1] * c);
    }
  }
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

function overlaps(r, placed) {
  return placed.some(
    (o) => r.x < o.x + o.w - EPS && o.x < r.x + r.w - EPS && r.y < o.y + o.h - EPS && o.y < r.y + r.h - EPS,
  );
}

// The candidate placements of a link at the arm's edge.
function straight(arm, dbl) {
  const { p, d } = arm;
  const w = right(d);
  const len = dbl ? 1 : 2;
  const r = rect(p, d, w, [GAP, GAP + len], dbl ? [-1, 1] : [-0.5, 0.5]);
  const inner = { x: p.x + d[0] * (GAP + 0.5), y: p.y + d[1] * (GAP + 0.5) };
  const outer = { x: inner.x + d[0], y: inner.y + d[1] };
  return { r, inner, outer, crosswise: dbl, p: { x: p.x + d[0] * (GAP + len), y: p.y + d[1] * (GAP + len) }, d };
}

// A corner towards `w`: the inner half in line with the travel, the outer half
// turned. A double after an automatic corner lies across, centred.
function corner(arm, w, across = false) {
  const { p, d } = arm;
  const r = rect(p, d, w, [GAP, GAP + 1], across ? [-1, 1] : [-0.5, 1.5]);
  const inner = { x: p.x + d[0] * (GAP + 0.5), y: p.y + d[1] * (GAP + 0.5) };
  const outer = { x: inner.x + w[0], y: inner.y + w[1] };
  const reach = across ? 1 : 1.5;
  return { r, inner, outer, crosswise: across, p: { x: inner.x + w[0] * reach, y: inner.y + w[1] * reach }, d: w };
}

// Returns {tiles: [{tile, index, seat, x, y, w, h, first, second}], ends: {A, B},
// box: {x, y, w, h}, half} where `first` is the number drawn on the top/left half.
// A spinner table (`spinner`: its sides C and D are open, the round's ends name
// them): the first double of the chain is the spinner, and arms C and D leave
// its two long sides (up and down where it lies in a row, left and right in a
// column), walked like A and B; `ends` then has C and D too.
// `bends` is the round's layout ({"<index>": "left" | "right"}). A bend that
// would make the chain leave the table or run over itself (now or later) is not
// drawn: the latest such bend is dropped and the chain laid out again; `bent`
// lists the bends drawn. `zoom`: as in rowWidth.
export function layoutChain(chain, aspect, bends = {}, zoom = 1, spinner = false) {
  const active = { ...(bends || {}) };
  for (;;) {
    const lay = layoutOnce(chain, aspect, active, zoom, spinner);
    const keys = Object.keys(active).map(Number);
    if (lay.clean || !keys.length) return spinner && !lay.clean ? widened(chain, aspect, active, zoom, lay) : { ...lay, bent: active };
    delete active[String(Math.max(...keys))];
  }
}

// Four arms may meet where two never do (an arm's turn runs into a side of the
// spinner): a larger table, step by step, until they do not (smaller tiles).
function widened(chain, aspect, bends, zoom, lay) {
  let best = lay;
  for (const widen of [1.25, 1.5, 2, 2.5, 3, 4]) {
    best = layoutOnce(chain, aspect, bends, zoom, true, widen);
    if (best.clean) break;
  }
  return { ...best, bent: bends };
}

// The chain index of a spinner table's spinner: its first double (-1: none yet).
export function spinnerIndex(chain) {
  return chain.findIndex((link) => isDouble(link.tile));
}

// Where an arm starts: the first tile for A and B, the spinner for its sides C and D.
export function innermost(chain, end) {
  return end === "C" || end === "D" ? Math.max(spinnerIndex(chain), 0) : 0;
}

function layoutOnce(chain, aspect, bends, zoom, spinner, widen = 1) {
  const tiles = [];
  let clean = true;
  if (!chain.length) {
    return { tiles, ends: {}, box: { x: -4, y: -2, w: 8, h: 4 }, half: 4, clean: true };
  }
  const length = chain.reduce((sum, l) => sum + (isDouble(l.tile) ? 1 : 2) + GAP, 0);
  const half = (rowWidth(aspect, length, zoom) / 2) * widen;
  const halfV = Math.max(6 * widen, (1.5 * half) / Math.max(0.5, Math.min(aspect, 4)));
  const first = chain[0];
  const [lo, hi] = first.tile.split("-").map(Number);
  const dbl0 = isDouble(first.tile);
  const w0 = dbl0 ? 1 : 2;
  const r0 = dbl0 ? { x: -0.5, y: -1, w: 1, h: 2 } : { x: -1, y: -0.5, w: 2, h: 1 };
  tiles.push({ ...first, index: 0, ...r0, first: lo, second: hi, crosswise: dbl0 });
  const placed = [r0];
  const arms = {
    A: { p: { x: -w0 / 2, y: 0 }, d: [-1, 0], sense: [0, -1], value: lo, pending: null, lastDouble: dbl0 },
    B: { p: { x: w0 / 2, y: 0 }, d: [1, 0], sense: [0, 1], value: hi, pending: null, lastDouble: dbl0 },
  };
  // A corner may stand one unit past the row's width (the turn of the snake).
  const inside = (r, slack = 0) =>
    r.x >= -half - slack && r.x + r.w <= half + slack && r.y >= -halfV && r.y + r.h <= halfV;
  const overlap = (r) =>
    placed.reduce((sum, o) => {
      const w = Math.min(r.x + r.w, o.x + o.w) - Math.max(r.x, o.x);
      const h = Math.min(r.y + r.h, o.y + o.h) - Math.max(r.y, o.y);
      return sum + (w > EPS && h > EPS ? w * h : 0);
    }, 0);
  const spin = spinner ? spinnerIndex(chain) : -1;
  // Arms C and D leave the spinner's long sides: across the way its line runs there.
  const openSides = (tile) => {
    const cx = tile.x + tile.w / 2;
    const cy = tile.y + tile.h / 2;
    const row = tile.w < tile.h; // a double across a row stands upright
    const value = Number(tile.tile.split("-")[0]);
    for (const [end, d] of [["C", row ? [0, -1] : [-1, 0]], ["D", row ? [0, 1] : [1, 0]]]) {
      const p = { x: cx + d[0] * (row ? tile.h : tile.w) / 2, y: cy + d[1] * (row ? tile.h : tile.w) / 2 };
      arms[end] = { p, d, sense: row ? [1, 0] : [0, 1], value, pending: null, lastDouble: true };
    }
  };
  if (spin === 0) openSides(tiles[0]);
  chain.forEach((link, index) => {
    if (index === 0) return;
    const arm = arms[link.end === "A" || link.end === "C" || link.end === "D" ? link.end : "B"];
    if (!arm) return; // a side of a spinner not drawn (cannot happen with a real round)
    const dbl = isDouble(link.tile);
    const options = [];
    // The second corner of a U-turn at the table's edge.
    if (arm.pending) options.push({ c: corner(arm, arm.pending, dbl), slack: 1.5 });
    const bend = bends?.[String(index)];
    if ((bend === "left" || bend === "right") && !dbl && !arm.lastDouble) {
      options.push({ c: corner(arm, bend === "left" ? left(arm.d) : right(arm.d)), slack: 1.5 });
    }
    options.push({ c: straight(arm, dbl) });
    if (horizontal(arm.d)) {
      // The edge: turn towards the arm's side (or the other) and come back.
      for (const w of [arm.sense, [-arm.sense[0], -arm.sense[1]]]) {
        options.push({ c: corner(arm, w), pending: [-arm.d[0], -arm.d[1]], slack: 1.5 });
      }
    } else {
      // Top or bottom of the table: turn back towards the middle (or away).
      const towards = arm.p.x > 0 ? [-1, 0] : [1, 0];
      for (const w of [towards, [-towards[0], 0]]) options.push({ c: corner(arm, w), slack: 1.5 });
    }
    // The first that is on the table and free; else the least bad (on the table first).
    let choice = options.find((o) => inside(o.c.r, o.slack) && !overlaps(o.c.r, placed));
    if (!choice) {
      clean = false;
      const score = (o) => (inside(o.c.r, o.slack) ? 0 : 1000) + overlap(o.c.r);
      choice = options.reduce((best, o) => (score(o) < score(best) ? o : best));
    }
    const pick = choice.c;
    arm.pending = choice.pending ?? null;
    const innerFirst = pick.inner.x < pick.outer.x - EPS || pick.inner.y < pick.outer.y - EPS;
    const inner = arm.value;
    const outer = link.exposed;
    tiles.push({
      ...link,
      index,
      ...pick.r,
      first: innerFirst ? inner : outer,
      second: innerFirst ? outer : inner,
      crosswise: pick.crosswise,
    });
    placed.push(pick.r);
    arm.p = pick.p;
    arm.d = pick.d;
    arm.value = outer;
    arm.lastDouble = dbl;
    if (index === spin) openSides(tiles[tiles.length - 1]);
  });
  const tip = (arm) => ({ x: arm.p.x, y: arm.p.y, dx: arm.d[0], dy: arm.d[1], value: arm.value });
  const ends = { A: tip(arms.A), B: tip(arms.B) };
  if (arms.C) Object.assign(ends, { C: tip(arms.C), D: tip(arms.D) });
  return { tiles, ends, box: bounds(tiles, half), half, clean };
}

function bounds(tiles, half) {
  let x0 = -half;
  let x1 = half;
  let y0 = -1.5;
  let y1 = 1.5;
  for (const t of tiles) {
    x0 = Math.min(x0, t.x);
    y0 = Math.min(y0, t.y);
    x1 = Math.max(x1, t.x + t.w);
    y1 = Math.max(y1, t.y + t.h);
  }
  // Room for the end markers beyond the last tiles.
  const m = 1.2;
  return { x: x0 - m, y: y0 - m, w: x1 - x0 + 2 * m, h: y1 - y0 + 2 * m };
}

// The index of the outermost link of each end (what an adjustment at that end bends);
// a spinner's sides C and D once a tile lies there.
export function endLinks(chain) {
  const out = { A: 0, B: 0 };
  chain.forEach((link, index) => {
    if (index > 0) out[link.end === "A" || link.end === "C" || link.end === "D" ? link.end : "B"] = index;
  });
  return out;
}

export { isDouble, otherHalf };
