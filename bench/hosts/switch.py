"""The harness's network: a user-space Ethernet switch between the hosts' TAP
devices, with a delay and a loss rate per link, and links that can be cut.

Why user space: the kernel here has veth, bridges and TAP devices but no
``sch_netem`` (``tc qdisc add ... netem`` answers "Specified qdisc kind is
unknown") and no nftables or iptables, so the switch itself delays, drops and
cuts frames. It is one process, one thread: ``select`` (microsecond timeouts)
over the TAP file descriptors and a heap of frames due later.

Run by `bench.hosts.net.Net` as ``python -m bench.hosts.switch TAP...``: it
creates each TAP device (non-persistent: they vanish when this process dies),
prints ``ready``, and then reads commands on its standard input, one a line,
answering ``ok`` to each:

* ``link A B DELAY_MS LOSS`` -- frames between ports A and B (both ways) wait
  ``DELAY_MS`` and are dropped with probability ``LOSS`` (0..1);
* ``cut A B`` / ``heal A B`` -- drop every frame between A and B, or stop;
* ``stats`` -- frames forwarded and dropped so far (JSON).

Ports are numbered in the order of the TAP names. Frames go to the port whose
source MAC address was last seen on it; broadcasts and unknown destinations to
every other port. Frames of one link keep their order (equal delay, a
sequence number breaks ties).
"""

from __future__ import annotations

import fcntl
import heapq
import itertools
import json
import os
import random
import select
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000


def open_tap(name: str) -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


class Switch:
    def __init__(self, names: list[str]) -> None:
        self.fds = [open_tap(name) for name in names]
        self.port_of_fd = {fd: i for i, fd in enumerate(self.fds)}
        n = len(names)
        self.delay = [[0.0] * n for _ in range(n)]
        self.loss = [[0.0] * n for _ in range(n)]
        self.cut = [[False] * n for _ in range(n)]
        self.macs: dict[bytes, int] = {}
        self.due: list[tuple[float, int, int, bytes]] = []
        self.seq = itertools.count()
        self.forwarded = 0
        self.dropped = 0
        self.random = random.Random(44)

    def command(self, line: str) -> str:
        words = line.split()
        if not words:
            return "ok"
        if words[0] == "stats":
            return json.dumps({"forwarded": self.forwarded, "dropped": self.dropped})
        a, b = int(words[1]), int(words[2])
        if words[0] == "link":
            for x, y in ((a, b), (b, a)):
                self.delay[x][y] = float(words[3]) / 1000
                self.loss[x][y] = float(words[4])
        elif words[0] in ("cut", "heal"):
            self.cut[a][b] = self.cut[b][a] = words[0] == "cut"
        else:
            return f"error: unknown command {words[0]!r}"
        return "ok"

    def send(self, src: int, dst: int, frame: bytes, now: float) -> None:
        if self.cut[src][dst] or (
            self.loss[src][dst] and self.random.random() < self.loss[src][dst]
        ):
            self.dropped += 1
            return
        delay = self.delay[src][dst]
        if delay <= 0:
            self.write(dst, frame)
        else:
            heapq.heappush(self.due, (now + delay, next(self.seq), dst, frame))

    def write(self, dst: int, frame: bytes) -> None:
        try:
            os.write(self.fds[dst], frame)
            self.forwarded += 1
        except OSError:  # the device is down (its namespace going away): a lost frame
            self.dropped += 1

    def receive(self, fd: int, now: float) -> None:
        src = self.port_of_fd[fd]
        for _ in range(64):
            try:
                frame = os.read(fd, 65536)
            except (BlockingIOError, OSError):
                return
            if len(frame) < 14:
                continue
            self.macs[frame[6:12]] = src
            dst = self.macs.get(frame[0:6])
            if dst is not None and not frame[0] & 1:
                if dst != src:
                    self.send(src, dst, frame, now)
            else:
                for port in range(len(self.fds)):
                    if port != src:
                        self.send(src, port, frame, now)

    def run(self) -> None:
        stdin = sys.stdin.fileno()
        os.set_blocking(stdin, False)
        pending = b""
        print("ready", flush=True)
        watched = [*self.fds, stdin]
        while True:
            now = time.monotonic()
            while self.due and self.due[0][0] <= now:
                _, _, dst, frame = heapq.heappop(self.due)
                self.write(dst, frame)
            timeout = max(0.0, self.due[0][0] - now) if self.due else 1.0
            readable, _, _ = select.select(watched, [], [], timeout)
            now = time.monotonic()
            for fd in readable:
                if fd != stdin:
                    self.receive(fd, now)
                    continue
                chunk = os.read(stdin, 4096)
                if not chunk:
                    return  # our owner went away: so do the devices
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    print(self.command(line.decode()), flush=True)


if __name__ == "__main__":
    Switch(sys.argv[1:]).run()
