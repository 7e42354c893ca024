"""Signals, races and full disks: nothing is left behind and every end is one ``Error:`` line.

The module's own helpers are tested in-process; the command line runs in real subprocesses
that receive real signals (SIGTERM, SIGHUP, SIGINT, twice in quick succession, as soon as
their handlers are in place or mid-render), render concurrently to one target, or meet a
file-size limit set with ``resource.setrlimit``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import imageio_ffmpeg
import pytest
from click.testing import CliRunner
from PIL import Image

from searchvid.cli import main
from searchvid.signals import (
    Terminated,
    defer_signals,
    handled_signals,
    run_to_completion,
    terminate_on_signals,
)

POSIX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc and sends POSIX signals"
)
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


def test_outside_the_main_thread_nothing_is_installed() -> None:
    errors: list[BaseException] = []

    def body() -> None:
        try:
            with terminate_on_signals(), defer_signals():
                pass
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


# --- the command line in a subprocess --------------------------------------------------------


def start(
    tmp_path: Path,
    target: Path,
    *,
    frames: int = 2000,
    preexec_fn: Callable[[], None] | None = None,
) -> subprocess.Popen[str]:
    """``searchvid render`` of a small railroad scene to ``target``, in the background."""
    scene = tmp_path / f"rail{frames}.toml"
    scene.write_text(RAILROAD.format(frames=frames))
    env = {**os.environ, "CI": "1"}
    env.pop("SEARCHVID_DEBUG", None)
    return subprocess.Popen(
        [sys.executable, "-m", "searchvid", "render", str(scene), "-o", str(target), "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        preexec_fn=preexec_fn,
    )


def caught_signals(pid: int) -> int:
    """The mask of signals ``pid`` has handlers for (``SigCgt`` in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


def wait_for(condition: Callable[[], object], proc: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        assert proc.poll() is None, f"exited ({proc.returncode}) before {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.002)


def wait_for_handlers(proc: subprocess.Popen[str]) -> None:
    """Until the CLI's handlers are in place (SIGTERM and SIGHUP caught: only ours catch them)."""
    bits = (1 << (signal.SIGTERM - 1)) | (1 << (signal.SIGHUP - 1))
    wait_for(lambda: caught_signals(proc.pid) & bits == bits, proc, "the signal handlers")


def wait_for_partial(proc: subprocess.Popen[str], folder: Path) -> None:
    """Until the render has made its temporary output (and, for MP4, started ffmpeg)."""
    wait_for(lambda: any(".partial" in p.name for p in folder.iterdir()), proc, "the render")
    time.sleep(0.05)


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


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


@POSIX
@pytest.mark.parametrize(
    ("name", "signums", "when"),
    [
        ("x.mp4", (signal.SIGTERM,), "rendering"),
        ("x.gif", (signal.SIGHUP,), "rendering"),
        ("frames", (signal.SIGINT,), "rendering"),
        ("x.mp4", (signal.SIGINT, signal.SIGINT), "rendering"),
        ("x.gif", (signal.SIGTERM, signal.SIGINT), "rendering"),
        ("x.mp4", (signal.SIGTERM, signal.SIGTERM), "started"),
        ("frames", (signal.SIGHUP,), "started"),
        ("x.mp4", (signal.SIGINT, signal.SIGINT), "started"),
    ],
    ids=[
        "mp4-term",
        "gif-hup",
        "png-int",
        "mp4-int-int",
        "gif-term-int",
        "mp4-early",
        "png-early",
        "mp4-int-int-early",
    ],
)
def test_a_signal_stops_the_render_and_leaves_nothing(
    tmp_path: Path, out: Path, name: str, signums: tuple[int, ...], when: str
) -> None:
    proc = start(tmp_path, out / name)
    if when == "started":
        wait_for_handlers(proc)  # as early as the CLI can clean up: before any work
    else:
        wait_for_partial(proc, out)
    for i, signum in enumerate(signums):
        if i:
            time.sleep(0.001)
        proc.send_signal(signum)
    code, err = finish(proc)
    assert code == 128 + signums[0]
    assert_one_error(err, f"interrupted ({signal.Signals(signums[0]).name})")
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
