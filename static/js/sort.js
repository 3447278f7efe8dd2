// Sorting the hand in one tap (docs/table-feel.md). The result is kept like a
// dragged order (dnd.js).

const halves = (tile) => tile.split("-").map(Number);

// By suit: the number held most first (the higher on a tie); each tile goes
// with its better number, the double leading its suit.
export function bySuit(tiles) {
  const held = new Map();
  for (const tile of tiles) for (const n of new Set(halves(tile))) held.set(n, (held.get(n) ?? 0) + 1);
  const rank = (n) => held.get(n) * 10 + n;
  const key = (tile) => {
    const [a, b] = halves(tile);
    const [suit, other] = rank(a) >= rank(b) ? [a, b] : [b, a];
    return [rank(suit), suit === other ? 9 : other];
  };
  return [...tiles].sort((x, y) => {
    const [p, q] = [key(x), key(y)];
    return q[0] - p[0] || q[1] - p[1];
  });
}

// By pips: the heaviest first (the ones to shed).
export function byPips(tiles) {
  const sum = (tile) => halves(tile).reduce((a, b) => a + b, 0);
  return [...tiles].sort((x, y) => sum(y) - sum(x) || Math.max(...halves(y)) - Math.max(...halves(x)));
}
