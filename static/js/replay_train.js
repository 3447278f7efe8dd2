// "Train this position" on the replay page (templates/replays/_replay_train.html,
// replays/training.py): on the step of one of the viewer's own blunders, a
// button that opens that position as a puzzle for them alone. replay.js tells
// which step is drawn ("replay:render").

import { makeT, ready } from "./util.js";

ready(() => {
  const island = document.getElementById("replay-train");
  const root = document.querySelector("[data-replay]");
  const panel = document.querySelector("[data-train]");
  if (!island || !root || !panel) return;
  const data = JSON.parse(island.textContent);
  const t = makeT(data.strings || {});
  const form = panel.querySelector("[data-train-form]");
  panel.querySelector("[data-train-hint]").textContent = t("You blundered here: try to find the best move as a puzzle.");
  panel.querySelector("[data-action=train]").textContent = t("Train this position");
  const show = (pos) => {
    const url = pos ? data.steps[String(pos.seq)] : undefined;
    panel.hidden = !url;
    if (url) form.action = url;
  };
  root.addEventListener("replay:render", (event) => show(event.detail.pos));
  if (root.dataset.ready) {
    const boot = JSON.parse(document.getElementById("replay-boot").textContent);
    show(boot.positions[Number(root.dataset.step || 0)]);
  }
  panel.dataset.ready = "1";
});
