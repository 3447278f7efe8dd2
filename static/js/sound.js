// Sounds (docs/table-feel.md), synthesised with the Web Audio API: no files.
// One switch, kept per browser. The audio context starts on the first gesture
// (browsers' autoplay rules) and only while sound is on.

const KEY = "domino.sound";
let ctx = null;
let master = null;
let noise = null;

export const soundOn = () => localStorage.getItem(KEY) !== "off";

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    /* private mode */
  }
  if (on) unlock();
  if (!ctx) return;
  master.gain.value = on ? 0.6 : 0;
  if (on) ctx.resume();
  else ctx.suspend();
}

export function unlock() {
  if (ctx || !soundOn() || !window.AudioContext) return;
  ctx = new AudioContext();
  master = ctx.createGain();
  master.gain.value = 0.6;
  master.connect(ctx.destination);
  noise = ctx.createBuffer(1, ctx.sampleRate / 4, ctx.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
}

// A decaying note: `f` Hz (gliding to `to`), starting `at` s from now.
function tone(f, at, len, { type = "sine", vol = 0.3, to } = {}) {
  const t = ctx.currentTime + at;
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f, t);
  if (to) o.frequency.exponentialRampToValueAtTime(to, t + len);
  g.gain.setValueAtTime(vol, t);
  g.gain.exponentialRampToValueAtTime(0.001, t + len);
  o.connect(g).connect(master);
  o.start(t);
  o.stop(t + len);
}

// A burst of filtered noise: the wood of a tile.
function knock(f, at, len, vol = 0.5, q = 1.5) {
  const t = ctx.currentTime + at;
  const s = ctx.createBufferSource();
  const b = ctx.createBiquadFilter();
  const g = ctx.createGain();
  s.buffer = noise;
  b.type = "bandpass";
  b.frequency.value = f;
  b.Q.value = q;
  g.gain.setValueAtTime(vol, t);
  g.gain.exponentialRampToValueAtTime(0.001, t + len);
  s.connect(b).connect(g).connect(master);
  s.start(t);
  s.stop(t + len);
}

const SOUNDS = {
  lay: () => (knock(2400, 0, 0.05, 0.7), tone(1700, 0, 0.03, { type: "triangle", vol: 0.12 })),
  double: () => (knock(1300, 0, 0.08, 0.9), tone(700, 0, 0.06, { type: "triangle", vol: 0.2 }), knock(1900, 0.045, 0.05, 0.5)),
  draw: () => knock(900, 0, 0.14, 0.25, 0.7),
  pass: () => (tone(150, 0, 0.1, { vol: 0.5, to: 70 }), knock(400, 0, 0.06, 0.4), tone(150, 0.16, 0.1, { vol: 0.5, to: 70 }), knock(400, 0.16, 0.06, 0.4)),
  turn: () => (tone(660, 0, 0.16, { vol: 0.18 }), tone(990, 0.12, 0.22, { vol: 0.18 })),
  batida: () => (knock(800, 0, 0.12, 1, 1), tone(220, 0, 0.15, { type: "triangle", vol: 0.3, to: 110 }), tone(1320, 0.08, 0.3, { vol: 0.12 })),
  round: () => [523, 659, 784].forEach((f, i) => tone(f, i * 0.07, 0.45, { type: "triangle", vol: 0.12 })),
  match: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.12, i === 3 ? 0.8 : 0.2, { type: "triangle", vol: 0.15 })),
};

export function sound(name) {
  if (!ctx || !soundOn() || ctx.state === "closed") return;
  if (ctx.state === "suspended") ctx.resume();
  SOUNDS[name]?.();
}
