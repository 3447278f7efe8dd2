// Lays the chain out as a snake, in tile units (a tile is 2 x 1, a double 1 x 2
// when crosswise). Pure: no DOM. The first tile sits at the origin; the B arm
// runs right along row 0 and turns downwards at the right edge, the A arm runs
// left and turns upwards, so the two arms never meet whatever the length.

const GAP = 0.08;

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
// 2 * length / W, and we want W / height to match the box.
export function rowWidth(aspect, length) {
  const a = Math.max(0.5, Math.min(aspect, 4));
  const balanced = a + Math.sqrt(a * a + 2 * a * length);
  const comfortable = Math.min(8 * a + 2, 22);
  return Math.max(6, Math.min(Math.max(balanced, comfortable), 26));
}

// Place one arm. `links` are the arm's tiles from the centre outwards, each
// {tile, inner, outer, index}. `dir` is the first travel direction (+1 right,
// -1 left), `turn` the vertical direction of the turns (+1 down, -1 up).
function layArm(links, startX, dir, turn, half, out) {
  let cx = startX; // the open edge on the current row
  let cy = 0; // centre line of the current row
  let d = dir;
  let afterTurn = null; // {x0} of the turn tile's column, when the last tile turned
  let tip = { x: cx, y: cy, dx: d, dy: 0 };
  for (const link of links) {
    const dbl = isDouble(link.tile);
    if (afterTurn) {
      const col = afterTurn.x0; // left edge of the turn tile (1 unit wide)
      const rowY = cy;
      if (dbl) {
        // A double right below a corner lies across the column (crosswise to
        // the vertical travel) and becomes part of the corner.
        out.push(place(link, col - 0.5, rowY - 0.5, 2, 1, d < 0 ? "rtl" : "ltr", true));
        cx = d < 0 ? col - 0.5 : col + 1.5;
      } else {
        const x0 = d < 0 ? col - 1 : col;
        out.push(place(link, x0, rowY - 0.5, 2, 1, d < 0 ? "rtl" : "ltr", false));
        cx = d < 0 ? x0 : x0 + 2;
      }
      afterTurn = null;
      tip = { x: cx, y: cy, dx: d, dy: 0 };
      continue;
    }
    const len = dbl ? 1 : 2;
    const fits = d > 0 ? cx + GAP + len <= half : cx - GAP - len >= -half;
    if (fits) {
      const x0 = d > 0 ? cx + GAP : cx - GAP - len;
      if (dbl) out.push(place(link, x0, cy - 1, 1, 2, "ttb", true));
      else out.push(place(link, x0, cy - 0.5, 2, 1, d > 0 ? "ltr" : "rtl", false));
      cx = d > 0 ? x0 + len : x0;
      tip = { x: cx, y: cy, dx: d, dy: 0 };
      continue;
    }
    // Turn: a vertical tile whose inner half stays on this row.
    const x0 = d > 0 ? cx + GAP : cx - GAP - 1;
    const y0 = turn > 0 ? cy - 0.5 : cy - 1.5;
    out.push(place(link, x0, y0, 1, 2, turn > 0 ? "ttb" : "btt", dbl));
    cy += turn * (2 + GAP);
    d = -d;
    afterTurn = { x0 };
    tip = { x: x0 + 0.5, y: turn > 0 ? y0 + 2 : y0, dx: 0, dy: turn };
  }
  return tip;
}

// `flow` says where the inner (connecting) half is: ltr = inner on the left,
// rtl = inner on the right, ttb = inner on top, btt = inner at the bottom.
function place(link, x, y, w, h, flow, crosswise) {
  let first = link.inner;
  let second = link.outer;
  if (flow === "rtl" || flow === "btt") [first, second] = [second, first];
  return { ...link, x, y, w, h, first, second, crosswise };
}

// Returns {tiles: [{tile, index, seat, x, y, w, h, first, second}], ends: {A, B},
// box: {x, y, w, h}} where `first` is the number drawn on the top/left half.
export function layoutChain(chain, aspect) {
  const tiles = [];
  if (!chain.length) {
    return { tiles, ends: {}, box: { x: -4, y: -2, w: 8, h: 4 }, half: 4 };
  }
  const first = chain[0];
  const [lo, hi] = first.tile.split("-").map(Number);
  const armA = [];
  const armB = [];
  let endA = lo;
  let endB = hi;
  chain.forEach((link, index) => {
    if (index === 0) return;
    if (link.end === "A") {
      armA.push({ ...link, index, inner: endA, outer: link.exposed });
      endA = link.exposed;
    } else {
      armB.push({ ...link, index, inner: endB, outer: link.exposed });
      endB = link.exposed;
    }
  });
  const length = chain.reduce((sum, l) => sum + (isDouble(l.tile) ? 1 : 2) + GAP, 0);
  const half = rowWidth(aspect, length) / 2;
  const dbl = isDouble(first.tile);
  const w0 = dbl ? 1 : 2;
  if (dbl) tiles.push({ ...first, index: 0, x: -0.5, y: -1, w: 1, h: 2, first: lo, second: hi, crosswise: true });
  else tiles.push({ ...first, index: 0, x: -1, y: -0.5, w: 2, h: 1, first: lo, second: hi, crosswise: false });
  const tipB = layArm(armB, w0 / 2, 1, 1, half, tiles);
  const tipA = layArm(armA, -w0 / 2, -1, -1, half, tiles);
  const box = bounds(tiles, half);
  return {
    tiles,
    ends: { A: { ...tipA, value: endA }, B: { ...tipB, value: endB } },
    box,
    half,
  };
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

export { isDouble, otherHalf };
