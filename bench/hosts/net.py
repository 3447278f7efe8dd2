"""Hosts as network namespaces, joined by the user-space switch
(`bench.hosts.switch`), and everything needed to take them away again.

Names: every namespace, device and folder of a run carries ``PREFIX`` and the
run's id (``d44`` + 4 hex digits): namespaces ``d44ab12-web1``, TAP devices
``d44ab12web1``, the run's folder ``STATE/d44ab12`` (its owner's pid in
``owner``, the temporary data below it). A run removes everything it made on
exit (`Net.close`: atexit, and SIGTERM/SIGINT/SIGHUP turned into SystemExit),
and `clean_leftovers` (called by every new run) removes what a run killed
with SIGKILL left behind: the namespaces, folders and processes of every run
whose owner is no longer alive. Nothing outside these names is touched.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

PREFIX = "d44"
STATE = Path("/tmp/domino-hosts")
SUBNET = "10.44.0"
#: The hosts and their addresses (one /24, all on the switch).
HOSTS = {
    "db": f"{SUBNET}.2",
    "redis": f"{SUBNET}.3",
    "web1": f"{SUBNET}.11",
    "web2": f"{SUBNET}.12",
    "worker": f"{SUBNET}.20",
    "client": f"{SUBNET}.100",
}


class Unavailable(RuntimeError):
    """This machine cannot make the hosts (not root, no ``ip``, no TAP)."""


def why_unavailable() -> str | None:
    """Why the hosts cannot be made here, or None."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "needs iproute2's `ip`"
    if not os.path.exists("/dev/net/tun"):
        return "needs /dev/net/tun (TAP devices)"
    probe = f"{PREFIX}probe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def _run(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")
    return done.stdout


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _namespaces() -> list[str]:
    out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def _kill_namespace(ns: str) -> None:
    """SIGKILL every process in ``ns`` (all ours: the run started them), then
    delete it."""
    out = subprocess.run(["ip", "netns", "pids", ns], capture_output=True, text=True).stdout
    for pid in (int(p) for p in out.split()):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def _owner(run_id: str) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int((STATE / run_id / "owner").read_text())
    return None


def clean_leftovers() -> list[str]:
    """Remove what runs killed earlier left: namespaces and folders of runs
    whose owner is gone (their processes, in those namespaces, first; the
    switch and its TAP devices die with their owner's standard input).
    Returns the run ids removed."""
    runs: set[str] = set()
    for ns in _namespaces():
        if ns.startswith(PREFIX) and "-" in ns:
            runs.add(ns.split("-", 1)[0])
    if STATE.exists():
        runs.update(p.name for p in STATE.iterdir() if p.name.startswith(PREFIX))
    removed = []
    for run_id in sorted(runs):
        owner = _owner(run_id)
        if owner is not None and _alive(owner):
            continue
        switch_pid = STATE / run_id / "switch"
        with contextlib.suppress(OSError, ValueError, ProcessLookupError):
            os.kill(int(switch_pid.read_text()), signal.SIGKILL)
        for ns in _namespaces():
            if ns.startswith(run_id + "-"):
                _kill_namespace(ns)
        shutil.rmtree(STATE / run_id, ignore_errors=True)
        removed.append(run_id)
    return removed


class Net:
    """The hosts of `HOSTS`, each a namespace with one TAP device on the switch.

    ``delay_ms`` (one way) and ``loss`` apply to every link at the start;
    `link`, `cut` and `heal` change one link, `isolate` all of a host's."""

    def __init__(self, delay_ms: float = 0.0, loss: float = 0.0) -> None:
        why = why_unavailable()
        if why:
            raise Unavailable(why)
        clean_leftovers()
        self.id = PREFIX + secrets.token_hex(2)
        self.dir = STATE / self.id
        self.dir.mkdir(parents=True)
        (self.dir / "owner").write_text(str(os.getpid()))
        self.names = list(HOSTS)
        self.switch: subprocess.Popen | None = None
        self.closed = False
        atexit.register(self.close)
        _exit_on_signals()
        try:
            self._build(delay_ms, loss)
        except BaseException:
            self.close()
            raise

    def ns(self, host: str) -> str:
        return f"{self.id}-{host}"

    def address(self, host: str) -> str:
        return HOSTS[host]

    def _build(self, delay_ms: float, loss: float) -> None:
        taps = [f"{self.id}{host}"[:15] for host in self.names]
        for host in self.names:
            _run("ip", "netns", "add", self.ns(host))
            _run("ip", "-n", self.ns(host), "link", "set", "lo", "up")
        self.switch = subprocess.Popen(
            [sys.executable, "-m", "bench.hosts.switch", *taps],
            cwd=Path(__file__).resolve().parents[2],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        (self.dir / "switch").write_text(str(self.switch.pid))
        assert self.switch.stdout is not None
        ready = self.switch.stdout.readline().strip()
        if ready != "ready":
            raise RuntimeError(f"the switch did not start: {ready!r}")
        for host, tap in zip(self.names, taps, strict=True):
            ns = self.ns(host)
            _run("ip", "link", "set", tap, "netns", ns)
            _run("ip", "-n", ns, "addr", "add", f"{HOSTS[host]}/24", "dev", tap)
            _run("ip", "-n", ns, "link", "set", tap, "up")
        for i, a in enumerate(self.names):
            for b in self.names[i + 1 :]:
                self.link(a, b, delay_ms, loss)

    def _say(self, line: str) -> str:
        assert self.switch is not None and self.switch.stdin and self.switch.stdout
        self.switch.stdin.write(line + "\n")
        self.switch.stdin.flush()
        answer = self.switch.stdout.readline().strip()
        if answer.startswith("error") or not answer:
            raise RuntimeError(f"switch: {line!r} -> {answer!r}")
        return answer

    def _ports(self, a: str, b: str) -> str:
        return f"{self.names.index(a)} {self.names.index(b)}"

    def link(self, a: str, b: str, delay_ms: float, loss: float = 0.0) -> None:
        """Frames between ``a`` and ``b`` wait ``delay_ms`` (one way) and are
        lost with probability ``loss``."""
        self._say(f"link {self._ports(a, b)} {delay_ms} {loss}")

    def cut(self, a: str, b: str) -> None:
        """Nothing passes between ``a`` and ``b`` (silently: no reset, no ICMP),
        until `heal`."""
        self._say(f"cut {self._ports(a, b)}")

    def heal(self, a: str, b: str) -> None:
        self._say(f"heal {self._ports(a, b)}")

    def stats(self) -> str:
        return self._say("stats")

    def exec_argv(self, host: str, argv: list[str], user: str | None = None) -> list[str]:
        """``argv`` run in ``host``'s namespace (``ip netns exec`` and, for
        ``user``, ``setpriv`` replace themselves with the program: its pid is
        the program's)."""
        prefix = ["ip", "netns", "exec", self.ns(host)]
        if user:
            prefix += ["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--"]
        return prefix + argv

    def pids(self, host: str) -> list[int]:
        out = subprocess.run(
            ["ip", "netns", "pids", self.ns(host)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]

    def kill_host(self, host: str) -> list[int]:
        """SIGKILL every process on ``host`` (the host's power cut)."""
        pids = self.pids(host)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return pids

    def close(self) -> None:
        """Kill every process in the hosts, delete the namespaces, stop the
        switch (its TAP devices go with it), remove the run's folder."""
        if self.closed:
            return
        self.closed = True
        for host in self.names:
            if self.ns(host) in _namespaces():
                _kill_namespace(self.ns(host))
        if self.switch is not None and self.switch.poll() is None:
            self.switch.kill()
            self.switch.wait(5)
        keep = os.environ.get("DOMINO_HOSTS_KEEP_LOGS")  # a folder to copy the logs to
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for log in self.dir.glob("*.log"):
                shutil.copy(log, Path(keep) / f"{self.id}-{log.name}")
        shutil.rmtree(self.dir, ignore_errors=True)
        with contextlib.suppress(Exception):
            atexit.unregister(self.close)


def _exit_on_signals() -> None:
    """SIGTERM and SIGHUP end the process through SystemExit (SIGINT already
    raises KeyboardInterrupt), so that atexit and ``finally`` clean up; a
    handler already installed by someone else is left alone."""

    def leave(signum, frame):  # noqa: ARG001
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError):  # not the main thread
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                signal.signal(sig, leave)


def wait_port(net: Net, host: str, port: int, timeout: float = 30) -> None:
    """Until something on ``host`` accepts TCP connections on ``port`` (probed
    from ``host`` itself)."""
    deadline = time.monotonic() + timeout
    probe = f"import socket; socket.create_connection(('{HOSTS[host]}', {port}), 1).close()"
    while time.monotonic() < deadline:
        done = subprocess.run(
            net.exec_argv(host, [sys.executable, "-c", probe]), capture_output=True
        )
        if done.returncode == 0:
            return
        time.sleep(0.2)
    raise RuntimeError(f"nothing answered on {host}:{port} in {timeout} s")
