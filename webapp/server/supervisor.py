"""granian's process manager (its MPServer) with what serving the site needs and granian
2.8 leaves to the application (emmett-framework/granian#921: "know how long your
application takes to boot and instruct granian accordingly"):

* **Listening sockets that live as long as the server.** On Linux granian gives each
  worker a SO_REUSEPORT socket of its own, which the worker binds only once it has loaded
  the app, and closes when it stops: while a worker boots, or when a stopping worker's
  successor is not listening yet, the connections the kernel hashes to its slot are
  refused (and all of them, with one worker), and the ones queued at a stopping worker
  are reset. Here the master binds and listens one SO_REUSEPORT socket per worker slot
  at start, and each worker, and its successors, accept from their slot's socket: the
  kernel still spreads new connections evenly over the slots, and a connection whose
  slot has no ready worker (booting, replaced, killed, frozen) waits in that socket's
  backlog until one is, never refused or reset. (One socket shared by all workers would
  also never refuse, but the workers then race for each accept, and a burst of
  connections, as a load balancer's or a proxy's pool opens them, lands on one worker
  while the other idles: measured, all 8 of a benchmark's connections on one worker.)
* **A new worker takes over only when it is ready.** A respawn (SIGHUP, lifetime, memory)
  stops the old worker once the new one has loaded the app (its first heartbeat), not
  after a fixed interval; granian would stop it after `respawn_interval` whatever the
  new one's state.
* **A watchdog.** Each worker writes a heartbeat (two monotonic times: when it became
  ready, and now) into a file of its own once a second, from a thread of its own; the
  master kills a worker whose heartbeat is older than `worker_timeout` seconds, or that
  is not ready `boot_timeout` seconds after its start, says so in the log, and granian
  respawns it. Nothing runs per request.

The log says when each worker is ready (`worker-2 (PID 4242) ready in 0.41 s`) and when a
reload is done (`Reload done: ...`); the tests wait on those lines.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from typing import Any

from granian.log import logger
from granian.net import SocketSpec
from granian.server.mp import MPServer, WorkerProcess

HEARTBEATS = "SHINPAN_HEARTBEATS"  # the folder of the heartbeat files (set by the master)
BEAT_SECONDS = 1.0  # a worker's heartbeat interval
CHECK_SECONDS = 0.25  # how often the master reads the heartbeats
_BEAT = struct.Struct("dd")  # (monotonic time it became ready, monotonic time of this beat)


def _beat_file(folder: str, pid: int) -> str:
    return os.path.join(folder, str(pid))


def start_heartbeat(folder: str | None = None, beat: bool = True) -> None:
    """In a worker whose app is loaded: mark it ready and, if `beat`, keep beating from a
    daemon thread. Without a folder (no supervisor), nothing."""
    folder = folder or os.environ.get(HEARTBEATS)
    if not folder:
        return
    path = _beat_file(folder, os.getpid())
    ready = time.monotonic()

    def write(fd: int | None) -> int | None:
        """One beat (16 bytes, one write); the file made again if it went away."""
        try:
            if fd is not None and os.fstat(fd).st_nlink == 0:  # a cleaner removed it
                os.close(fd)
                fd = None
            if fd is None:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.pwrite(fd, _BEAT.pack(ready, time.monotonic()), 0)
            return fd
        except OSError:
            return None  # the master sees no beat and, in time, replaces this worker

    fd = write(None)
    if not beat:
        return

    def run() -> None:
        handle = fd
        while True:
            time.sleep(BEAT_SECONDS)
            handle = write(handle)

    threading.Thread(target=run, name="heartbeat", daemon=True).start()


def read_heartbeat(folder: str, pid: int) -> tuple[float, float] | None:
    """(ready, last beat) of the worker `pid`, in time.monotonic(); None before it is ready."""
    try:
        with open(_beat_file(folder, pid), "rb") as handle:
            data = handle.read(_BEAT.size)
    except OSError:
        return None
    return _BEAT.unpack(data) if len(data) == _BEAT.size else None


def load_app(target: str) -> Any:
    """granian's target loader, run in each worker: the app, then its heartbeat."""
    from granian._internal import load_target

    app = load_target(target)
    start_heartbeat(beat=os.environ.get("SHINPAN_WATCHDOG", "1") != "0")
    return app


class Worker(WorkerProcess):
    """granian's worker process; whether its exit is a crash (to respawn) is decided
    under the supervisor's lock, so a respawn that replaces it first has the last word."""

    reported = False  # its unexpected exit is in the log
    exited = False  # its watcher has seen it exit
    on_trial = False  # a reload's new worker, not ready yet: the reload handles its exit
    was_ready = False  # it has sent a heartbeat

    def _watcher(self) -> None:
        self.inner.join()
        with self.parent._slots:
            self.exited = True
            if self.interrupt_by_parent or self.on_trial:
                return
            self.crashed()

    def crashed(self) -> None:
        """Say so and have granian respawn it (under the supervisor's lock). granian
        counts a worker that dies within 5.5 s of its respawn as a crash loop and exits;
        one that was ready had started fine (a kill, a fault in service), so its death
        is no such loop and must not take the site down."""
        self.report_exit()
        if self.was_ready:
            self.parent.respawned_wrks.pop(self.idx, None)
        self.parent.interrupt_children.append(self.idx)
        self.parent.main_loop_interrupt.set()

    def report_exit(self) -> None:
        self.reported = True
        logger.error(f"Unexpected exit from worker-{self.idx + 1} "
                     f"(PID {self.inner.pid}, exit code {self.inner.exitcode})")


class Supervisor(MPServer):
    """granian's MPServer with a listening socket per worker slot for the server's life,
    ready-gated respawns and a watchdog (see the module's text). `worker_timeout=0` turns
    the watchdog off."""

    def __init__(self, *args: Any, worker_timeout: float = 10.0, boot_timeout: float = 60.0,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.worker_timeout = worker_timeout
        self.boot_timeout = boot_timeout
        self.heartbeats = ""
        self._slots = threading.Lock()  # self.wrks as the watchdog and a respawn see it
        self._beats: dict[int, tuple[float, float]] = {}  # PID -> its last heartbeat read
        self._ready_lock = threading.Lock()
        self._killed: set[int] = set()  # PIDs the watchdog killed (once each)
        self._stopping = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._slot_sockets: list[tuple[Any, socket.socket]] = []  # one per worker slot

    # -- the listening sockets -------------------------------------------------------
    def _init_shared_socket(self) -> None:
        if self.bind_uds or sys.platform != "linux":
            return super()._init_shared_socket()  # granian shares one socket there already
        spec = SocketSpec(self.bind_addr, self.bind_port, self.backlog)
        self._slot_sockets = []
        for _ in range(self.workers):  # port 0: the first build picks it, the rest reuse it
            holder = spec.build()  # bound with SO_REUSEPORT, not listening yet
            sock = socket.socket(fileno=holder.get_fd())
            sock.set_inheritable(True)
            sock.listen(self.backlog)  # from now until shutdown: the kernel queues for it
            self._slot_sockets.append((holder, sock))
        self._ssp = None
        self._shd, self._sso = self._slot_sockets[0]

    def _drop_shared_socket(self) -> None:
        super()._drop_shared_socket()
        for _, sock in self._slot_sockets:
            sock.close()
        self._slot_sockets = []

    def _spawn_worker(self, idx: int, target: Any, callback_loader: Any) -> Worker:
        if self._slot_sockets:  # the slot's socket: granian passes self._shd/_sso on
            self._shd, self._sso = self._slot_sockets[idx]
        worker = super()._spawn_worker(idx, target, callback_loader)
        worker.__class__ = Worker  # before start(), which starts its watcher
        return worker

    # -- readiness ----------------------------------------------------------------------
    def _state(self, worker: Any) -> tuple[float, float] | None:
        """The worker's last heartbeat (the last one read, should its file be gone a
        moment); logs its readiness the first time it is seen."""
        pid = worker.inner.pid
        beat = read_heartbeat(self.heartbeats, pid)
        with self._ready_lock:
            if beat is None:
                return self._beats.get(pid)
            worker.was_ready = True
            if pid not in self._beats:
                logger.info(f"worker-{worker.idx + 1} (PID {pid}) ready in "
                            f"{beat[0] - worker.birth:.2f} s")
            self._beats[pid] = beat
        return beat

    def _wait_ready(self, worker: Any) -> bool:
        while not self.interrupt_signal and worker.is_alive():
            if self._state(worker) is not None:
                return True
            if time.monotonic() - worker.birth > self.boot_timeout:
                break
            time.sleep(0.02)
        if not self.interrupt_signal:
            why = (f"not ready after {self.boot_timeout:g} s" if worker.is_alive()
                   else f"exited with code {worker.inner.exitcode}")
            logger.error(f"worker-{worker.idx + 1} (PID {worker.inner.pid}) did not become "
                         f"ready: {why}")
        return False

    def _frozen(self, worker: Any) -> str | None:
        """Why the worker must be killed (its beat is too old, or it never got ready)."""
        beat = self._state(worker)
        if not self.worker_timeout or worker.inner.pid in self._killed or not worker.is_alive():
            return None
        now = time.monotonic()
        if beat is None:
            if now - worker.birth > self.boot_timeout:
                return f"not ready {now - worker.birth:.1f} s after its start"
            return None
        if now - beat[1] > self.worker_timeout:
            return f"no heartbeat for {now - beat[1]:.1f} s"
        return None

    # -- respawn: the old worker stops once the new one is ready -----------------------
    def _respawn_workers(self, workers: list[int], spawn_target: Any, target_loader: Any,
                         delay: float = 0) -> bool:
        """granian's respawn, with its `delay` (respawn_interval) replaced by readiness; a
        new worker that does not get ready leaves the old one serving and ends a reload
        (False): a deploy of broken code keeps the site up."""
        for idx in workers:
            self.respawned_wrks[idx] = time.monotonic()
            logger.info(f"Respawning worker-{idx + 1}")
            with self._slots:
                old = self.wrks.pop(idx)
                if not (old.interrupt_by_parent or old.reported or old.is_alive()):
                    old.report_exit()  # died after the reload began, before its watcher said so
                replacing = old.is_alive()  # a reload, not a crash
                # Replaced now: however it ends is no crash. (A worker killed while a reload
                # waits for another would otherwise be respawned after the reload as well,
                # and granian would count that as a crash loop and exit.)
                old.interrupt_by_parent = True
                while idx in self.interrupt_children:
                    self.interrupt_children.remove(idx)
                new = self._spawn_worker(idx=idx, target=spawn_target,
                                         callback_loader=target_loader)
                new.on_trial = replacing
                new.start()
                self.wrks.insert(idx, new)
            ready = self._wait_ready(new)  # also after a crash: "Reload done" means ready
            if replacing and not ready:
                self._keep(old, new)
                return False
            with self._slots:
                new.on_trial = False
                if new.exited:  # right after it got ready, and its watcher let it be
                    new.crashed()
            logger.info(f"Stopping old worker-{idx + 1}")
            if self._frozen(old):
                old.kill()  # a frozen worker would only use up workers_kill_timeout
            else:
                old.terminate()
            old.join(self.workers_kill_timeout)
            if self.workers_kill_timeout and old.is_alive():
                logger.warning(f"Killing old worker-{idx + 1} after it refused to gracefully stop")
                old.kill()
                old.join()
            logger.info(f"Stopped old worker-{idx + 1}")
        self._metrics.incr_spawn(len(workers))
        return True

    def _keep(self, old: Any, new: Any) -> None:
        """The new worker failed: stop it, and the old one goes on in its place."""
        new.interrupt_by_parent = True
        new.kill()
        new.join()
        with self._slots:
            self.wrks[new.idx] = old
            old.interrupt_by_parent = False
            if not old.is_alive():
                old.crashed()
        if self.interrupt_signal:
            return  # stopping: the reload just ends
        logger.error(f"Reload stopped at worker-{new.idx + 1}: its new process did not become "
                     "ready, so the old one goes on serving, as do the workers not replaced "
                     "yet (see the error above)")

    def _reload(self, spawn_target: Any, target_loader: Any) -> None:
        started = time.monotonic()
        if super()._reload(spawn_target, target_loader):
            logger.info(f"Reload done: {len(self.wrks)} new workers in "
                        f"{time.monotonic() - started:.1f} s")

    # -- the watchdog -------------------------------------------------------------------
    def _forget_gone(self) -> None:
        """The heartbeat files and records of workers that have exited."""
        for name in os.listdir(self.heartbeats):
            try:
                os.kill(int(name), 0)
            except ProcessLookupError:
                with self._ready_lock:
                    self._beats.pop(int(name), None)
                self._killed.discard(int(name))
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(self.heartbeats, name))
            except (ValueError, OSError):
                continue

    def _watch(self) -> None:
        while not self._stopping.wait(CHECK_SECONDS):
            os.makedirs(self.heartbeats, mode=0o700, exist_ok=True)  # if a cleaner took it
            self._forget_gone()
            with self._slots:
                for worker in list(self.wrks):
                    why = self._frozen(worker)
                    if why is None:
                        continue
                    logger.error(f"worker-{worker.idx + 1} (PID {worker.inner.pid}) is frozen "
                                 f"({why}): killing it; a new worker replaces it")
                    self._killed.add(worker.inner.pid)
                    # no crash loop, even if it froze before it was ready (see crashed())
                    self.respawned_wrks.pop(worker.idx, None)
                    try:
                        os.kill(worker.inner.pid, signal.SIGKILL)  # granian respawns it
                    except ProcessLookupError:
                        pass

    def startup(self, spawn_target: Any, target_loader: Any) -> None:
        self.heartbeats = tempfile.mkdtemp(prefix="shinpan-heartbeats-")
        os.environ[HEARTBEATS] = self.heartbeats  # the workers inherit it
        if not self.worker_timeout:
            os.environ["SHINPAN_WATCHDOG"] = "0"  # readiness only, no beating thread
        super().startup(spawn_target, target_loader)
        self._watchdog = threading.Thread(target=self._watch, name="watchdog", daemon=True)
        self._watchdog.start()

    def shutdown(self, exit_code: int = 0) -> None:
        self._stopping.set()
        if self._watchdog is not None:
            self._watchdog.join()
        try:
            super().shutdown(exit_code)
        finally:
            shutil.rmtree(self.heartbeats, ignore_errors=True)
