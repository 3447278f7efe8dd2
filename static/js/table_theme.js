// The table's look, per browser (docs/table-feel.md, "Table themes"): the felt's
// colour, the tiles' style and large tiles. A classic script in <head> of the
// table and replay pages, like theme.js, so the choice is on <html> (data-felt,
// data-tiles, data-tile-size) before the first paint: no flash of the default.
// table-themes.css does the rest; board.js reads data-tile-size for the chain.
(() => {
  const root = document.documentElement;
  const CHOICES = {
    felt: { key: "domino.felt", values: ["green", "blue", "wine", "wood"] },
    tiles: { key: "domino.tiles", values: ["ivory", "colour", "dark"] },
    tileSize: { key: "domino.tileSize", values: ["normal", "large"] },
  };
  const read = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // private mode: the defaults
    }
  };
  // The first value is the default, shown without an attribute.
  function apply() {
    for (const [name, { key, values }] of Object.entries(CHOICES)) {
      const value = read(key);
      if (values.includes(value) && value !== values[0]) root.dataset[name] = value;
      else delete root.dataset[name];
    }
  }
  function show() {
    for (const input of document.querySelectorAll("[data-table-theme]")) {
      const current = root.dataset[input.dataset.tableTheme] || CHOICES[input.dataset.tableTheme].values[0];
      if (input.type === "checkbox") input.checked = current === "large";
      else input.value = current;
    }
  }
  function choose(input) {
    const { key, values } = CHOICES[input.dataset.tableTheme];
    const value = input.type === "checkbox" ? (input.checked ? "large" : "normal") : input.value;
    if (!values.includes(value)) return;
    try {
      if (value === values[0]) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* refused: this page only */
    }
    if (value === values[0]) delete root.dataset[input.dataset.tableTheme];
    else root.dataset[input.dataset.tableTheme] = value;
    // The chain is SVG laid out by script: its drawing follows the tile size.
    document.dispatchEvent(new CustomEvent("domino:table-theme"));
  }
  apply();
  document.addEventListener("DOMContentLoaded", show);
  document.addEventListener("change", (event) => {
    const input = event.target.closest?.("[data-table-theme]");
    if (input) choose(input);
  });
  addEventListener("storage", (event) => {
    if (!Object.values(CHOICES).some((c) => c.key === event.key)) return;
    apply(); // another tab chose
    show();
    document.dispatchEvent(new CustomEvent("domino:table-theme"));
  });
})();
