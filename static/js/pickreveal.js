// The tie-break's revealed picks (docs/table-rules.md "The tie-break's picks, revealed"; DomiArena: "As escolhas
// são reveladas juntas"): each round of picks turned face up together, each
// tile by its seat's name with its sum. Shared by the table and the replay.

import { html, nothing, unsafeHTML } from "./lit.js";
import { tileSVG } from "./tiles.js";
import { ngettext } from "./util.js";

const pips = (tile) => tile.split("-").reduce((sum, n) => sum + Number(n), 0);

// `pickOff`: the snapshot's `pick_off` (its `rounds`: [[{seat, index, tile}]]);
// `nameOf(seat)`: a seat's name; `t`: the page's translations.
export function pickReveals(pickOff, nameOf, t) {
  const rounds = pickOff?.rounds ?? [];
  if (!rounds.length) return nothing;
  const items = rounds.map((picks, n) => {
    const lowest = Math.min(...picks.map((p) => pips(p.tile)));
    const shown = picks.map(
      (p) => html`<li class="pick-reveal${pips(p.tile) === lowest ? " lowest" : ""}" data-pick-reveal=${p.tile} data-pick-seat=${p.seat}>
        <span class="who">${nameOf(p.seat)}</span>${unsafeHTML(tileSVG(p.tile, { className: "mini" }))}<span class="sum">${ngettext("%(n)s pip", "%(n)s pips", pips(p.tile))}</span>
      </li>`,
    );
    return html`<li data-pick-round=${n + 1}><span class="pick-round">${t("Picks, round %(n)s", { n: n + 1 })}</span><ul>${shown}</ul></li>`;
  });
  return html`<div class="pick-reveals" data-pick-reveals aria-label=${t("The tie-break picks, revealed")}><ol>${items}</ol></div>`;
}
