// The replay page's check of a verifiable deal (docs/rules.md, "Verifiable deals",
// version domino-fair-v1), computed in this browser with SubtleCrypto: the
// commitment is SHA-256 of the server seed; the material names the room, match,
// round and the players' seeds; block k of the stream is SHA-256(seed ‖ material
// ‖ k as 8 bytes big-endian); a Fisher–Yates shuffle of the 28 tiles reads it.
// Every seed field can be edited: the check runs again and shows ✔ or ✘.

const $ = (sel, el = document) => el.querySelector(sel);
const HEX64 = /^[0-9a-f]{64}$/;
const CLIENT_SEED = /^[ -9;-~]{1,64}$/; // printable ASCII but ":"
const TILES = [];
for (let a = 0; a <= 6; a += 1) for (let b = a; b <= 6; b += 1) TILES.push(`${a}-${b}`);

const encoder = new TextEncoder();
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// The stream's bytes, a block at a time; uniform(n) is unbiased (rejection).
function stream(seed, material) {
  const key = concat(seed, encoder.encode(material));
  let block = 0n;
  let buffer = new Uint8Array(0);
  async function read4() {
    while (buffer.length < 4) {
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, block);
      block += 1n;
      buffer = concat(buffer, await sha256(concat(key, counter)));
    }
    const x = new DataView(buffer.buffer, buffer.byteOffset, 4).getUint32(0);
    buffer = buffer.slice(4);
    return x;
  }
  return {
    async uniform(n) {
      const limit = 2 ** 32 - (2 ** 32 % n);
      for (;;) {
        const x = await read4();
        if (x < limit) return x % n;
      }
    },
  };
}

export async function shuffle(seed, material) {
  const tiles = TILES.slice();
  const s = stream(seed, material);
  for (let i = tiles.length - 1; i >= 1; i -= 1) {
    const j = await s.uniform(i + 1);
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  return tiles;
}

const fill = (text, n) => text.replace("%(n)s", String(n));

async function check(box, data) {
  const serverSeed = $("[data-fair-server-seed]", box).value.trim();
  const clientSeeds = Array.from(box.querySelectorAll("[data-fair-client-seed]"), (el) => el.value);
  const material = `${data.code.toUpperCase()}:${data.match}:${data.number}:${clientSeeds.join(":")}`;
  $("[data-fair-material]", box).textContent = material;
  const problems = [];
  if (!HEX64.test(serverSeed) || !clientSeeds.every((s) => CLIENT_SEED.test(s))) {
    return { problems: [box.dataset.badSeed], order: null };
  }
  const seed = fromHex(serverSeed);
  if (toHex(await sha256(seed)) !== data.fair.commitment) problems.push(box.dataset.badCommitment);
  if (material !== data.fair.material) problems.push(box.dataset.badMaterial);
  const order = await shuffle(seed, material);
  const size = data.hand_size;
  for (let s = 0; s < data.seats; s += 1) {
    const hand = order.slice(s * size, (s + 1) * size);
    if (hand.join(" ") !== (data.hands[s] || []).join(" ")) problems.push(fill(box.dataset.badHand, s + 1));
  }
  const rest = order.slice(data.seats * size);
  data.drawn.forEach((tile, k) => {
    if (!data.draw || rest[k] !== tile) problems.push(fill(box.dataset.badDraw, k + 1));
  });
  return { problems, order };
}

function showDeal(box, data, order) {
  const list = $("[data-fair-deal]", box);
  list.replaceChildren();
  if (!order) return;
  const size = data.hand_size;
  const rows = [];
  for (let s = 0; s < data.seats; s += 1) rows.push([fill(box.dataset.seat, s + 1), order.slice(s * size, (s + 1) * size)]);
  // The drawn tiles only: the ones nobody drew stay unshown (docs/rules.md rule 10),
  // though anyone may compute them now that the seed is out.
  if (data.drawn.length) rows.push([box.dataset.drawn, order.slice(data.seats * size, data.seats * size + data.drawn.length)]);
  for (const [label, tiles] of rows) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "fair-seat";
    name.textContent = `${label}: `;
    const code = document.createElement("code");
    code.textContent = tiles.join(" ");
    item.append(name, code);
    list.append(item);
  }
}

async function run(box, data) {
  const verdict = $("[data-fair-verdict]", box);
  const message = $("[data-fair-message]", box);
  if (!globalThis.crypto?.subtle) {
    box.dataset.verdict = "unknown";
    message.textContent = box.dataset.noCrypto;
    return;
  }
  box.dataset.verdict = "working";
  message.textContent = box.dataset.working;
  const { problems, order } = await check(box, data);
  const ok = problems.length === 0;
  box.dataset.verdict = ok ? "ok" : "bad";
  verdict.textContent = ok ? "✔" : "✘";
  verdict.title = ok ? box.dataset.ok : box.dataset.bad;
  message.textContent = ok ? box.dataset.ok : `${box.dataset.bad} ${problems.join(" ")}`;
  showDeal(box, data, order);
}

function start() {
  const box = $("[data-fair-check]");
  const island = document.getElementById("replay-fair");
  if (!box || !island) return;
  const data = JSON.parse(island.textContent);
  let latest = Promise.resolve();
  const again = () => {
    latest = latest.then(() => run(box, data)); // one check at a time, the last one wins
  };
  box.addEventListener("input", (event) => {
    if (event.target.matches("[data-fair-server-seed], [data-fair-client-seed]")) again();
  });
  again();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
