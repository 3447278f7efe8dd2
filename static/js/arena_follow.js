// On an arena's table page: listen to the arena (ws/arenas/<id>/) and, once
// the arena gives this player a new table, show the link to it and go there
// after a moment (time to see this table's result). docs/site.md, "Arenas".
// The socket is the pages' one client (socket_client.js), stopped once there.

import { openSocket } from "./socket_client.js";

const FOLLOW_AFTER_MS = 3000;

function follow(box) {
  const here = box.dataset.code;
  const next = box.querySelector("[data-arena-next]");
  const client = openSocket(`/ws/arenas/${box.dataset.arenaLink}/`, {
    onMessage: (msg) => {
      const code = msg.type === "arena" ? msg.you?.table : null;
      if (!code || code === here) return;
      client.stop();
      next.href = `/r/${code}/`;
      next.hidden = false;
      setTimeout(() => location.assign(next.href), FOLLOW_AFTER_MS);
    },
  });
}

const box = document.querySelector("[data-arena-link]");
if (box) follow(box);
