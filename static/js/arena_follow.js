// On an arena's table page: listen to the arena (ws/arenas/<id>/) and, once
// the arena gives this player a new table, show the link to it and go there
// after a moment (time to see this table's result). docs/site.md, "Arenas".

const FOLLOW_AFTER_MS = 3000;

function follow(box) {
  const here = box.dataset.code;
  const next = box.querySelector("[data-arena-next]");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let gone = false;
  const connect = () => {
    const ws = new WebSocket(`${proto}//${location.host}/ws/arenas/${box.dataset.arenaLink}/`);
    ws.addEventListener("message", (event) => {
      const msg = JSON.parse(event.data);
      const code = msg.type === "arena" ? msg.you?.table : null;
      if (!code || code === here || gone) return;
      gone = true;
      next.href = `/r/${code}/`;
      next.hidden = false;
      setTimeout(() => location.assign(next.href), FOLLOW_AFTER_MS);
    });
    ws.addEventListener("close", () => {
      if (!gone) setTimeout(connect, 2000);
    });
  };
  connect();
}

const box = document.querySelector("[data-arena-link]");
if (box) follow(box);
