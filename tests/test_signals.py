"""Signals, races and full disks: nothing is left behind and every end is one ``Error:`` line.

The helpers of :mod:`searchvid.signals` are tested in-process: the first signal to arrive
wins over Python's own order, a signal that lands where raising is unsafe (an import, a
finalizer, ``__set_name__``, logging) is raised just after it, one that is swallowed is raised
again at a checkpoint, and a library user's handlers are back after a block.

The command line runs in real subprocesses that receive real signals: one at start-up (from
the moment of spawn, before Python has installed any handler, to 600 ms in), pairs on every
output format, a storm through the clean-up and the exit. Other subprocesses render
concurrently to one target or meet a file-size limit set with ``resource.setrlimit``.

How pairs are timed. The first signal is the first one the process took in: the second is
sent ``gap`` ms after the process dequeued the first and its C-level handler returned (read
from /proc), so that the kernel never holds both at once. Two signals pending at once before
the process runs have no order the kernel keeps: such pairs (``raw``, sent 1 ms apart without
waiting, which a busy machine may deliver together, and ``stopped``, sent to a stopped
process) may end as either signal, but always as exactly one of them, in one line, with
nothing left.

``make test`` runs a representative set of the subprocess cases; with
``SEARCHVID_SIGNAL_STRESS=1`` (``make test-signals-stress`` loops over it) every combination
runs.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import imageio_ffmpeg
import pytest
from click.testing import CliRunner
from PIL import Image

from searchvid.cli import main
from searchvid.signals import (
    SignalWatch,
    Terminated,
    checkpoint,
    defer_signals,
    handled_signals,
    run_to_completion,
    terminate_on_signals,
)

POSIX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc and sends POSIX signals"
)
STRESS = os.environ.get("SEARCHVID_SIGNAL_STRESS") == "1"
INT, TERM, HUP = signal.SIGINT, signal.SIGTERM, signal.SIGHUP
RAILROAD = """\
title = "Railroad Ink, long enough to interrupt"
seed = 3

[domain]
name = "railroad"

[search]
algorithm = "random-walk"
restarts = 1000

[video]
fps = 24
tile_size = 16
max_frames = {frames}
hold_last = 0
"""


def to_self(signum: int) -> None:
    """Send ``signum`` to this thread: its C-level handler has run when this returns."""
    signal.pthread_kill(threading.get_ident(), signum)


def until_terminated() -> None:
    """Run Python code until :class:`Terminated` is raised in it (fail after 10 s)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(0.001)
    pytest.fail("the signal was never raised")


def interrupted(body: Callable[[], object]) -> Terminated:
    """Run ``body`` inside :func:`terminate_on_signals`, then Python code until the signal is
    raised; the :class:`Terminated` that ends the block."""

    def block() -> None:
        with terminate_on_signals():
            body()
            until_terminated()

    with pytest.raises(Terminated) as info:
        block()
    return info.value


@pytest.fixture(autouse=True)
def deliverable_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP as in a process started from a terminal, even under
    ``nohup`` or as a background job (which would leave some ignored, as searchvid does)."""
    ignored = [s for s in handled_signals() if signal.getsignal(s) == signal.SIG_IGN]
    for signum in ignored:
        signal.signal(signum, signal.SIG_DFL)
    yield
    for signum in ignored:
        signal.signal(signum, signal.SIG_IGN)


def default_signals() -> None:
    """In a child before ``exec``: see :func:`deliverable_signals`."""
    for signum in handled_signals():
        signal.signal(signum, signal.SIG_DFL)


@pytest.fixture
def unraisable(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What Python would print as ``Exception ignored in ...``."""
    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    return seen


# --- the helpers, in-process -----------------------------------------------------------------


def test_terminated_names_its_signal_and_exit_code() -> None:
    stop = Terminated(signal.SIGTERM)
    assert str(stop) == "interrupted (SIGTERM)"
    assert stop.exit_code == 143
    assert Terminated(signal.SIGHUP).exit_code == 129
    assert Terminated(signal.SIGINT).name == "SIGINT"
    assert not isinstance(stop, Exception)  # `except Exception` does not swallow it


@POSIX
def test_terminate_on_signals_raises_once_then_restores_the_handlers() -> None:
    before = {s: signal.getsignal(s) for s in handled_signals()}
    with pytest.raises(Terminated) as info, terminate_on_signals():
        signal.raise_signal(signal.SIGHUP)
    assert info.value.signum == signal.SIGHUP
    assert {s: signal.getsignal(s) for s in handled_signals()} == before
    assert signal.set_wakeup_fd(-1) == -1  # the wakeup descriptor is put back too


@POSIX
def test_a_repeated_signal_is_ignored_while_the_first_is_handled() -> None:
    def stopped_twice() -> None:
        with terminate_on_signals():
            try:
                signal.raise_signal(signal.SIGTERM)
            finally:
                signal.raise_signal(signal.SIGTERM)  # a second one during the cleanup: ignored
                signal.raise_signal(signal.SIGINT)

    with pytest.raises(Terminated) as info:
        stopped_twice()
    assert info.value.signum == signal.SIGTERM


@POSIX
@pytest.mark.parametrize(
    "pair", [(TERM, INT), (HUP, INT), (INT, TERM), (TERM, HUP)], ids=lambda p: named(p)
)
def test_the_first_signal_to_arrive_decides_not_python_s_order(pair: tuple[int, int]) -> None:
    def both_held_back() -> None:
        # Held back, both handlers run later: Python runs them in signal-number order.
        with defer_signals():
            for signum in pair:
                to_self(signum)

    assert interrupted(both_held_back).signum == pair[0]


@POSIX
def test_a_signal_landing_inside_the_handler_does_not_jump_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read = SignalWatch._read_wakeups

    def read_then_interrupted(watch: SignalWatch) -> bytes:
        arrived = read(watch)
        if signal.SIGTERM in arrived:
            to_self(signal.SIGINT)  # its handler runs at once, before SIGTERM is recorded
        return arrived

    monkeypatch.setattr(SignalWatch, "_read_wakeups", read_then_interrupted)

    def held() -> None:
        with defer_signals():
            to_self(signal.SIGTERM)

    assert interrupted(held).signum == signal.SIGTERM


@POSIX
def test_a_signal_during_an_import_is_raised_once_the_import_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unraisable: list[object]
) -> None:
    (tmp_path / "sv_interrupted_import.py").write_text(
        "import signal, threading\n"
        "signal.pthread_kill(threading.get_ident(), signal.SIGTERM)\n"
        "signal.pthread_kill(threading.get_ident(), signal.SIGINT)\n"
        "class Loaded:\n"
        "    done = True\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "sv_interrupted_import", raising=False)
    stop = interrupted(lambda: importlib.import_module("sv_interrupted_import"))
    assert sys.modules["sv_interrupted_import"].Loaded.done  # the import ran to its end
    assert stop.signum == signal.SIGTERM  # the first, though SIGINT's handler ran first
    assert unraisable == []


@POSIX
def test_a_signal_while_a_with_statement_enters_is_raised_in_its_body() -> None:
    released: list[str] = []

    @contextmanager
    def resource() -> Iterator[None]:
        to_self(signal.SIGTERM)  # before the with statement has entered: its exit must run
        try:
            yield
        finally:
            released.append("released")

    def use() -> None:
        with resource():
            until_terminated()

    assert interrupted(use).signum == signal.SIGTERM
    assert released == ["released"]


@POSIX
def test_a_signal_in_a_finalizer_is_neither_printed_nor_lost(unraisable: list[object]) -> None:
    finalized: list[str] = []

    class Resource:
        def __del__(self) -> None:
            to_self(signal.SIGTERM)
            finalized.append("closed")

    def drop() -> None:
        resource = Resource()
        del resource

    assert interrupted(drop).signum == signal.SIGTERM
    assert finalized == ["closed"]
    assert unraisable == []


@POSIX
def test_a_signal_in_a_generator_being_closed_is_neither_printed_nor_lost(
    unraisable: list[object],
) -> None:
    closed: list[str] = []

    def walk() -> Iterator[int]:
        try:
            yield 1
        finally:  # run by close(), which the garbage collector calls
            to_self(signal.SIGHUP)
            closed.append("walked")

    def drop() -> None:
        steps = walk()
        next(steps)
        del steps

    assert interrupted(drop).signum == signal.SIGHUP
    assert closed == ["walked"]
    assert unraisable == []


@POSIX
def test_a_signal_in_set_name_is_raised_after_the_class_is_made() -> None:
    names: list[str] = []

    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            to_self(signal.SIGTERM)
            names.append(name)

    def define() -> None:
        class Board:
            cell = Field()

    stop = interrupted(define)
    assert names == ["cell"]
    assert type(stop) is Terminated  # not the RuntimeError Python 3.11 wraps it in


@POSIX
def test_a_signal_inside_logging_leaves_its_lock_free() -> None:
    class Interrupted(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            to_self(signal.SIGTERM)
            self.seen = record.getMessage()

    handler = Interrupted()
    logger = logging.getLogger("sv-signals-test")
    logger.addHandler(handler)
    try:
        interrupted(lambda: logger.warning("logged"))
    finally:
        logger.removeHandler(handler)
    assert handler.seen == "logged"
    free: list[bool] = []

    def try_lock() -> None:
        assert handler.lock is not None
        free.append(handler.lock.acquire(blocking=False))
        if free[0]:
            handler.lock.release()

    probe = threading.Thread(target=try_lock)
    probe.start()
    probe.join()
    assert free == [True]


@POSIX
def test_a_swallowed_signal_is_raised_again_at_the_checkpoint() -> None:
    swallowed: list[int] = []

    def swallow_then_check() -> None:
        with terminate_on_signals():
            try:
                to_self(signal.SIGHUP)
                until_terminated()
            except BaseException as error:  # code that catches too much
                swallowed.append(getattr(error, "signum", 0))
            checkpoint()

    with pytest.raises(Terminated) as info:
        swallow_then_check()
    assert swallowed == [signal.SIGHUP]
    assert info.value.signum == signal.SIGHUP


@POSIX
def test_the_final_checkpoint_replaces_the_error_a_signal_caused_then_settles() -> None:
    def wrapped(watch: SignalWatch) -> None:
        with watch.final_checkpoint():
            try:
                to_self(signal.SIGTERM)
                until_terminated()
            except BaseException:
                raise ValueError("the code it hit wrapped it") from None

    with terminate_on_signals() as watch:
        with pytest.raises(Terminated) as info:
            wrapped(watch)
        to_self(signal.SIGINT)  # settled: recorded, never raised
        time.sleep(0.02)
        checkpoint()
    assert info.value.signum == signal.SIGTERM
    assert watch.first == signal.SIGTERM


@POSIX
def test_a_signal_after_the_outcome_is_handed_to_the_library_user_s_handler() -> None:
    seen: list[int] = []
    old = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with terminate_on_signals() as watch:
            with watch.final_checkpoint():
                pass
            to_self(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, old)


@POSIX
def test_nested_blocks_share_one_handler() -> None:
    with terminate_on_signals() as outer:
        handler = signal.getsignal(signal.SIGTERM)
        with terminate_on_signals() as inner:
            assert inner is outer
            assert signal.getsignal(signal.SIGTERM) is handler
        assert signal.getsignal(signal.SIGTERM) is handler  # the inner block put nothing back
        checkpoint()  # nothing arrived: nothing raised


def test_checkpoint_outside_a_block_does_nothing() -> None:
    checkpoint()
    assert SignalWatch().first is None


@POSIX
def test_a_forked_child_handles_signals_as_a_new_process_does() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with terminate_on_signals():
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child reports through its exit code
            same = signal.getsignal(signal.SIGTERM) == before
            os._exit(0 if same and signal.set_wakeup_fd(-1) == -1 else 1)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@POSIX
def test_ignored_signals_stay_ignored() -> None:
    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with terminate_on_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            signal.raise_signal(signal.SIGHUP)
    finally:
        signal.signal(signal.SIGHUP, old)


@POSIX
def test_deferred_signals_reach_the_old_handler_afterwards() -> None:
    seen: list[int] = []
    old = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with defer_signals():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is not None
    finally:
        signal.signal(signal.SIGTERM, old)


@POSIX
def test_run_to_completion_finishes_the_cleanup_before_the_interruption() -> None:
    done: list[str] = []

    def cleanup() -> None:
        signal.raise_signal(signal.SIGINT)  # Ctrl-C in the middle of the cleanup
        done.append("step 2")

    with pytest.raises(KeyboardInterrupt):
        run_to_completion(cleanup)
    assert done == ["step 2"]
    with terminate_on_signals(), pytest.raises(Terminated) as info:
        run_to_completion(cleanup)  # held back, then raised
    assert done == ["step 2", "step 2"]
    assert info.value.signum == signal.SIGINT


def test_outside_the_main_thread_nothing_is_installed() -> None:
    errors: list[BaseException] = []

    def body() -> None:
        try:
            with terminate_on_signals() as watch, defer_signals():
                assert watch.first is None
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert errors == []


def test_the_cli_restores_the_handlers_it_installed(tmp_path: Path) -> None:
    before = {s: signal.getsignal(s) for s in handled_signals()}
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert {s: signal.getsignal(s) for s in handled_signals()} == before


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[int, str], None]]:
    """Install a stand-in for the command line that ends with ``code`` after writing
    ``line`` (if any) and settling, then receives a SIGTERM before the process exits; the
    handlers are put back after :func:`searchvid._launch.main` left them ignored."""
    before = {s: signal.getsignal(s) for s in handled_signals()}

    def install(code: int, line: str) -> None:
        def command_line() -> None:
            with terminate_on_signals() as watch:
                with watch.final_checkpoint():
                    if line:
                        sys.stderr.write(line + "\n")
                to_self(signal.SIGTERM)  # after the outcome, before the exit
                sys.exit(code)

        monkeypatch.setattr("searchvid.cli.main", command_line)

    yield install
    for signum, handler in before.items():
        signal.signal(signum, handler)


@POSIX
@pytest.mark.parametrize(
    ("code", "line", "expected"),
    [
        (0, "", (143, ["Error: interrupted (SIGTERM)"])),
        (1, "Error: the disk is full", (1, ["Error: the disk is full"])),
    ],
    ids=["succeeded", "failed"],
)
def test_a_signal_after_the_outcome_is_reported_only_if_the_command_succeeded(
    launched: Callable[[int, str], None],
    capsys: pytest.CaptureFixture[str],
    code: int,
    line: str,
    expected: tuple[int, list[str]],
) -> None:
    from searchvid import _launch

    launched(code, line)
    with pytest.raises(SystemExit) as info:
        _launch.main()
    assert (info.value.code, capsys.readouterr().err.splitlines()) == expected
    # Ignored until the process ends: nothing can cut its exit short.
    assert {signal.getsignal(s) for s in handled_signals()} == {signal.SIG_IGN}


# --- the command line in a subprocess --------------------------------------------------------

FORMATS = {"mp4": "x.mp4", "gif": "x.gif", "png": "frames", "html": "x.html"}
SCRIPT = Path(sys.executable).with_name("searchvid")


def start(
    tmp_path: Path,
    target: Path,
    *,
    frames: int = 2000,
    launcher: str = "module",
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.Popen[str]:
    """``searchvid render`` of a small railroad scene to ``target``, in the background,
    through ``python -m searchvid`` or (``launcher="script"``) the console script."""
    scene = tmp_path / f"rail{frames}.toml"
    scene.write_text(RAILROAD.format(frames=frames))
    env = {**os.environ, "CI": "1"}
    env.pop("SEARCHVID_DEBUG", None)
    if launcher == "script" and SCRIPT.exists():
        command = [str(SCRIPT)]
    else:
        command = [sys.executable, "-m", "searchvid"]
    return subprocess.Popen(
        [*command, "render", str(scene), "-o", str(target), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        preexec_fn=preexec_fn or default_signals,
    )


def proc_status(pid: int) -> dict[str, str]:
    """``/proc/PID/status`` as a dict; empty once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return {
        key: value.strip() for key, _, value in (line.partition(":") for line in text.splitlines())
    }


def handlers_visible(pid: int) -> bool:
    """Whether the CLI's handlers are in place (SIGTERM and SIGHUP caught: only ours catch
    them; SIGINT is installed before them)."""
    caught = int(proc_status(pid).get("SigCgt", "0"), 16)
    bits = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGHUP - 1))
    return caught & bits == bits


def threads_blocking(pid: int, signum: int) -> set[int]:
    """The threads of ``pid`` that block ``signum``: the kernel blocks a signal in the thread
    that handles it from the moment it sets the handler up until the handler returns."""
    bit = 1 << (signum - 1)
    found = set()
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        with contextlib.suppress(OSError, ValueError, KeyError):
            status = Path(task, "status").read_text().split("SigBlk:")[1].split()[0]
            if int(status, 16) & bit:
                found.add(int(task.name))
    return found


def wait_for(condition: Callable[[], object], proc: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert proc.poll() is None, f"exited ({proc.returncode}) before {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.0005)


def wait_for_handlers(proc: subprocess.Popen[str]) -> None:
    wait_for(lambda: handlers_visible(proc.pid), proc, "the signal handlers")


def wait_for_partial(proc: subprocess.Popen[str], folder: Path) -> None:
    """Until the render has made its temporary output (and, for MP4, started ffmpeg)."""
    wait_for(lambda: any(".partial" in p.name for p in folder.iterdir()), proc, "the render")
    time.sleep(0.05)


def send_taken_in(proc: subprocess.Popen[str], signum: int) -> None:
    """Send ``signum`` and wait until ``proc`` has taken it in: no longer pending, and its
    C-level handler returned (no thread blocks it any more), seen twice 0.5 ms apart. A
    signal sent after that arrives after this one, even if the process was parked between
    dequeuing this one and running its handler."""
    bit = 1 << (signum - 1)
    always = threads_blocking(proc.pid, signum)  # threads that block it anyway
    proc.send_signal(signum)
    deadline = time.monotonic() + 30
    calm = 0
    while calm < 2:
        status = proc_status(proc.pid)
        if not status or status["State"].startswith(("Z", "X")):
            return  # gone: nothing will arrive after it
        pending = (int(status["ShdPnd"], 16) | int(status["SigPnd"], 16)) & bit
        handling = threads_blocking(proc.pid, signum) - always
        calm = 0 if pending or handling else calm + 1
        assert time.monotonic() < deadline, "the signal was not taken in"
        time.sleep(0.0005)


def stopped(proc: subprocess.Popen[str]) -> bool:
    return proc_status(proc.pid).get("State", "").startswith("T")


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    code, _, err = ended(proc)
    return code, err


def ended(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def processes_mentioning(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (e.g. an ffmpeg writing there)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(int(entry.name))
    return found


def assert_one_error(err: str, text: str) -> None:
    lines = err.splitlines()
    assert lines == [f"Error: {text}"], err


def assert_interrupted(result: tuple[int, str, str], signum: int) -> None:
    """Exit 128 + ``signum``, its one line on stderr, nothing on stdout."""
    code, out, err = result
    name = signal.Signals(signum).name
    assert (code, out, err.splitlines()) == (128 + signum, "", [f"Error: interrupted ({name})"])


def assert_nothing_left(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == []
    assert processes_mentioning(str(folder)) == []


@pytest.fixture
def out(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "out"
    folder.mkdir()
    yield folder
    for pid in processes_mentioning(str(folder)):  # never leave an ffmpeg behind a failure
        os.kill(pid, signal.SIGKILL)


def cases(every: list[Any], few: list[Any]) -> list[Any]:
    """All combinations under ``SEARCHVID_SIGNAL_STRESS=1``, else a representative few."""
    return every if STRESS else few


def named(signums: tuple[int, ...]) -> str:
    return "-".join(signal.Signals(s).name[3:].lower() for s in signums)


START_DELAYS_MS = (0, 5, 10, 20, 30, 45, 60, 80, 120, 200, 300, 450, 600)
"""After the spawn, for SIGTERM and SIGHUP (whose default action ends the process)."""
INT_DELAYS_MS = (0, 1, 5, 20, 50, 100, 200, 400)
"""After the handler is in place, for SIGINT."""


def start_up_cases() -> list[Any]:
    plan = [(s, d) for s in (TERM, HUP) for d in START_DELAYS_MS]
    plan += [(INT, d) for d in INT_DELAYS_MS]
    formats = itertools.cycle(FORMATS)
    return [
        pytest.param(
            fmt := next(formats),
            signum,
            delay,
            launcher := "module" if index % 3 == 0 else "script",
            id=f"{named((signum,))}-{delay}ms-{fmt}-{launcher}",
        )
        for index, (signum, delay) in enumerate(plan)
    ]


START_UP = start_up_cases()


@POSIX
@pytest.mark.parametrize(
    ("fmt", "signum", "delay_ms", "launcher"),
    cases(START_UP, [START_UP[i] for i in (0, 4, 9, 18, 26, 31)]),
)
def test_a_signal_at_start_up_ends_as_itself(
    tmp_path: Path, out: Path, fmt: str, signum: int, delay_ms: int, launcher: str
) -> None:
    """SIGTERM or SIGHUP ``delay_ms`` after the spawn: before Python runs any of searchvid
    they end the process as the signal itself, with nothing written; from the handler's
    installation on, as one line and 128 + the signal. SIGINT counts from the handler's
    installation: before it, Python's own ``KeyboardInterrupt`` is raised."""
    proc = start(tmp_path, out / FORMATS[fmt], launcher=launcher)
    if signum == INT:
        wait_for_handlers(proc)
    time.sleep(delay_ms / 1000)
    visible = handlers_visible(proc.pid)
    proc.send_signal(signum)
    result = ended(proc)
    if result[0] == -signum:  # the default action: the handler was not in place yet
        assert not visible
        assert result[1:] == ("", "")
    else:
        assert_interrupted(result, signum)
    assert_nothing_left(out)


PAIRS = {"term-int": (TERM, INT), "hup-int": (HUP, INT), "int-int": (INT, INT)}
PAIRS["term-term"] = (TERM, TERM)
PAIR_CASES = [
    pytest.param(fmt, pair, phase, gap, id=f"{fmt}-{name}-{phase}-{gap}ms")
    for (name, pair), fmt, phase in itertools.product(
        PAIRS.items(), FORMATS, ("starting", "rendering")
    )
    for gap in (1, 5 if (len(name) + len(fmt)) % 2 else 20)
]


def pick(every: list[Any], *ids: str) -> list[Any]:
    chosen = [case for case in every if case.id in ids]
    assert len(chosen) == len(ids), "a representative case is missing"
    return chosen


@POSIX
@pytest.mark.parametrize(
    ("fmt", "pair", "phase", "gap_ms"),
    cases(
        PAIR_CASES,
        pick(
            PAIR_CASES,
            "gif-term-int-rendering-1ms",
            "mp4-term-int-starting-1ms",
            "png-hup-int-starting-1ms",
            "html-int-int-rendering-1ms",
            "mp4-term-term-rendering-1ms",
            "html-term-int-starting-1ms",
            "png-hup-int-rendering-1ms",
            "html-term-int-rendering-20ms",
            "png-hup-int-starting-20ms",
        ),
    ),
)
def test_the_first_of_two_signals_decides_the_end(
    tmp_path: Path, out: Path, fmt: str, pair: tuple[int, int], phase: str, gap_ms: int
) -> None:
    """The second signal, ``gap_ms`` after the process took the first in, while it loads
    (``starting``: the first is held back until the imports are done) or renders."""
    proc = start(tmp_path, out / FORMATS[fmt])
    if phase == "starting":
        wait_for_handlers(proc)
    else:
        wait_for_partial(proc, out)
    send_taken_in(proc, pair[0])
    time.sleep(gap_ms / 1000)
    proc.send_signal(pair[1])
    assert_interrupted(ended(proc), pair[0])
    assert_nothing_left(out)


TOGETHER_CASES = [
    pytest.param(fmt, pair, how, id=f"{fmt}-{name}-{how}")
    for (name, pair), fmt in itertools.product(PAIRS.items(), FORMATS)
    for how in ("raw", "stopped")
]


@POSIX
@pytest.mark.parametrize(
    ("fmt", "pair", "how"),
    cases(TOGETHER_CASES, pick(TOGETHER_CASES, "gif-term-int-raw", "mp4-hup-int-stopped")),
)
def test_two_signals_pending_at_once_end_as_one_of_them(
    tmp_path: Path, out: Path, fmt: str, pair: tuple[int, int], how: str
) -> None:
    proc = start(tmp_path, out / FORMATS[fmt])
    wait_for_partial(proc, out)
    if how == "stopped":
        proc.send_signal(signal.SIGSTOP)
        wait_for(lambda: stopped(proc), proc, "the stop")
        for signum in pair:
            proc.send_signal(signum)
        proc.send_signal(signal.SIGCONT)
    else:
        proc.send_signal(pair[0])
        time.sleep(0.001)
        proc.send_signal(pair[1])
    result = ended(proc)
    assert_interrupted(result, pair[1] if result[0] == 128 + pair[1] else pair[0])
    assert_nothing_left(out)


@POSIX
@pytest.mark.parametrize("fmt", cases(list(FORMATS), ["gif", "mp4"]))
def test_a_storm_of_signals_through_the_cleanup_and_exit_changes_nothing(
    tmp_path: Path, out: Path, fmt: str
) -> None:
    proc = start(tmp_path, out / FORMATS[fmt])
    wait_for_partial(proc, out)
    send_taken_in(proc, signal.SIGTERM)
    for signum in itertools.cycle((INT, HUP, TERM)):  # until the process is gone
        if proc.poll() is not None:
            break
        proc.send_signal(signum)
        time.sleep(0.0005)
    assert_interrupted(ended(proc), signal.SIGTERM)
    assert_nothing_left(out)


@POSIX
@pytest.mark.slow
@pytest.mark.parametrize("name", ["x.gif", "frames"])
def test_concurrent_renders_to_one_target_deliver_one_of_them(
    tmp_path: Path, out: Path, name: str
) -> None:
    target = out / name
    procs = [start(tmp_path, target, frames=frames) for frames in (60, 90)]
    results = [finish(proc) for proc in procs]
    assert results == [(0, ""), (0, "")]
    assert sorted(p.name for p in out.iterdir()) == [name]
    if name == "frames":
        count = len(list(target.iterdir()))
    else:
        with Image.open(target) as gif:
            count = getattr(gif, "n_frames", 1)
    assert count in (60, 90)


def limit_file_size(limit: int) -> None:
    import resource

    default_signals()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit gets EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@POSIX
@pytest.mark.slow
@pytest.mark.parametrize("name", ["x.mp4", "x.gif", "frames"])
def test_a_file_size_limit_is_a_one_line_error_and_leaves_nothing(
    tmp_path: Path, out: Path, name: str
) -> None:
    imageio_ffmpeg.get_ffmpeg_exe()  # nothing to write for the child: the path is known
    # Each PNG frame is a file of its own: only the MP4 and GIF grow past a small limit.
    limit = 3_000 if name == "frames" else 20_000
    proc = start(tmp_path, out / name, frames=200, preexec_fn=lambda: limit_file_size(limit))
    code, err = finish(proc)
    assert code == 1, err
    assert_one_error(
        err,
        f"file-size limit reached writing {out / name} (ulimit -f, or the file system's largest)",
    )
    assert_nothing_left(out)


# --- refused or unusual targets, through the CLI in-process -----------------------------------

TREE = """\
[domain]
name = "tree"
root = "R"
children = {{ {children} }}

[search]
algorithm = "backtracking"

[video]
tile_size = {tile_size}
max_frames = 4
hold_last = 0
"""


def tree_scene(tmp_path: Path, *, leaves: int = 3, tile_size: int = 16) -> Path:
    children = ", ".join(f'"L{i}" = {{}}' for i in range(leaves))
    path = tmp_path / "tree.toml"
    path.write_text(TREE.format(children=children, tile_size=tile_size))
    return path


def render(*args: str | Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["render", *map(str, args), "-q"])
    return result.exit_code, result.output.splitlines()


def test_a_gif_too_wide_for_the_format_is_refused_and_leaves_nothing(
    tmp_path: Path, out: Path
) -> None:
    scene = tree_scene(tmp_path, leaves=275, tile_size=64)  # about 70,000 px wide
    code, lines = render(scene, "-o", out / "wide.gif")
    assert code == 2, lines
    assert len(lines) == 1
    assert lines[0].startswith("Error: ")
    assert "65,535" in lines[0]  # the GIF format's limit, named
    assert list(out.iterdir()) == []


def test_a_251_character_output_name_renders(tmp_path: Path, out: Path) -> None:
    target = out / ("n" * 247 + ".gif")
    code, lines = render(tree_scene(tmp_path), "-o", target)
    assert code == 0, lines
    assert [p.name for p in out.iterdir()] == [target.name]


def test_a_png_target_that_links_to_a_folder_stays_a_link(tmp_path: Path, out: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "frame_000009.png").write_bytes(b"stale")
    link = out / "frames"
    link.symlink_to(real, target_is_directory=True)
    code, lines = render(tree_scene(tmp_path), "-o", link)
    assert code == 0, lines
    assert link.is_symlink()
    assert sorted(p.name for p in real.iterdir()) == [f"frame_{i:06d}.png" for i in range(4)]
    assert [p.name for p in out.iterdir()] == ["frames"]
