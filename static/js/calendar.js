// The tournaments' calendar (/torneios/, docs/site.md "Tournaments on a
// calendar"): the button that turns on this browser's notifications, the same
// setting as the table's (alerts.js), so that the start of a tournament
// joined ahead can be told while the tab is hidden (people.js). Its words are
// the button's data-label-* attributes (the server's translations).

import { askNotify, own, setAlert } from "./alerts.js";
import { ready } from "./util.js";

function show(button) {
  const on = own("notify");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.textContent = on ? button.dataset.labelOn : button.dataset.labelOff;
}

ready(() => {
  const button = document.querySelector("[data-action=notify-tournaments]");
  if (!button) return;
  if (!window.Notification) {
    button.hidden = true;
    return;
  }
  button.hidden = false;
  show(button);
  button.addEventListener("click", async () => {
    if (own("notify")) setAlert("notify", false);
    else await askNotify();
    show(button);
  });
});
