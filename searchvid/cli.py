"""The ``searchvid`` command line: a thin click group over the library.

Exit codes: 0 success; 2 bad usage or a bad scene file; 1 a failure while running; 130
interrupted. Every error is one line ``Error: ...`` on stderr, never a traceback (set
``SEARCHVID_DEBUG=1`` to see the traceback of an unexpected error).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from searchvid import __version__
from searchvid.errors import OptionError, RunError, SceneError, UsageError
from searchvid.progress import wants_progress_bar
from searchvid.usercode import blame, describe_failure, is_interrupt

# numpy, Pillow and the scene machinery load in the commands that use them: --version and
# --help import only click and the standard library (issue 22: start-up <= 0.15 s).
if TYPE_CHECKING:
    from searchvid.domains import Domain
    from searchvid.scene import Scene


class _Group(click.Group):
    """A click group that reports every failure as one ``Error:`` line with its exit code."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> NoReturn:
        """Run the command line; always exits (standalone mode is always on).

        While it runs, the first of SIGINT, SIGTERM and SIGHUP raises
        :class:`searchvid.signals.Terminated` (later ones are absorbed): a render cleans up on
        the way out, and the exit is one ``Error: interrupted (SIGTERM)`` line with code 128 +
        the signal's number. The handler is the process's one (``searchvid._launch`` installs
        it first thing); called in-process, this installs it and puts the old ones back.
        """
        from searchvid.signals import Terminated, terminate_on_signals

        with terminate_on_signals() as signals:
            try:
                try:
                    # A signal still ends the command as itself if the code it hit swallowed
                    # it or turned it into another error; after this, the outcome is decided.
                    with signals.final_checkpoint():
                        result = super().main(
                            args, prog_name, complete_var, standalone_mode=False, **extra
                        )
                except click.exceptions.NoArgsIsHelpError as error:
                    error.show()
                    sys.exit(error.exit_code)
                except click.ClickException as error:
                    _fail(error.format_message(), error.exit_code)
                except click.Abort:
                    _fail("interrupted", 130)
                except _ReaderGoneError:
                    _reader_gone()
                except UsageError as error:
                    _fail(str(error), 2)
                except RunError as error:
                    _fail(str(error), 1)
                except OSError as error:
                    if os.environ.get("SEARCHVID_DEBUG") and blame(error) is not None:
                        raise
                    _fail(describe_failure(error), 1)
                except Exception as error:  # a bug, ours or the user's: still one line
                    if os.environ.get("SEARCHVID_DEBUG"):
                        raise
                    _fail(describe_failure(error), 1)
                except BaseException as error:  # the user's code called sys.exit(), or worse
                    debug = os.environ.get("SEARCHVID_DEBUG")
                    if debug or is_interrupt(error) or blame(error) is None:
                        raise
                    _fail(describe_failure(error), 1)
                sys.exit(result if isinstance(result, int) else 0)
            # Also a signal that lands while one of the handlers above reports another error.
            except Terminated as stop:
                _fail(str(stop), stop.exit_code)
            except KeyboardInterrupt:  # raised by code rather than by a signal
                _fail("interrupted", 130)


class _ReaderGoneError(Exception):
    """Standard output's reader went away (``searchvid trace | head -1``)."""


def _echo(text: str, *, nl: bool = True) -> None:
    """Print ``text`` on standard output, flushed at once.

    A reader that went away ends the command quietly, as it ends a Unix tool (exit code
    141, SIGPIPE's); any other failure to write (``> /dev/full``) is one error line.
    """
    try:
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except BrokenPipeError:
        raise _ReaderGoneError from None
    except OSError as error:
        raise RunError(f"cannot write to standard output: {error.strerror or error}") from None


def _reader_gone() -> NoReturn:
    """Exit as a Unix tool whose reader closed the pipe: quietly, with SIGPIPE's code.

    Standard output now points at the null device, so that Python's own flush on the way
    out does not fail again with an ``Exception ignored`` line.
    """
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(128 + 13)


def _fail(message: str, code: int) -> NoReturn:
    click.echo("Error: " + " ".join(message.split()), err=True)
    sys.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="searchvid")
def main() -> None:
    """searchvid: turn tree searches on board games and puzzles into videos.

    SCENE is a path to a .toml scene file, or a bare name looked up in ./scenes and then in
    the scenes that come with searchvid.
    """


def _load(text: str, *, seed: int | None, frames: int | None, fps: int | None = None) -> Scene:
    from searchvid.scene import load_scene

    return load_scene(text).with_overrides(seed=seed, frames=frames, fps=fps)


_scene = click.argument("scene", metavar="SCENE")
_seed = click.option("--seed", type=click.IntRange(min=0), help="Override the scene's seed.")
_frames = click.option("--frames", type=click.IntRange(min=1), help="Override [video] max_frames.")
_fps = click.option("--fps", type=click.IntRange(1, 120), help="Override [video] fps.")


@dataclasses.dataclass(frozen=True)
class _Looks:
    """How frames look, from :func:`_look`'s options: --tile-size, --every, --no-hud,
    --width (None, False: the scene's own)."""

    tile_size: int | None
    every: int | None
    no_hud: bool
    width: int | None


def _look(command: Callable[..., None]) -> Callable[..., None]:
    """The options that change how frames look, shared by render, preview and storyboard so
    that what is previewed is what is rendered: --tile-size, --every, --no-hud, --width.
    The command gets them as one ``looks`` argument (:class:`_Looks`)."""

    @functools.wraps(command)
    def with_looks(**kwargs: Any) -> None:
        names = ("tile_size", "every", "no_hud", "width")
        command(looks=_Looks(*(kwargs.pop(name) for name in names)), **kwargs)

    looked: Callable[..., None] = with_looks
    for option in reversed(
        (
            click.option(
                "--tile-size", type=int, help="Override [video] tile_size (even, 8 to 512)."
            ),
            click.option(
                "--every", type=click.IntRange(min=1), help="Keep every k-th selected frame."
            ),
            click.option("--no-hud", is_flag=True, help="No status strip."),
            click.option(
                "--width",
                type=int,
                help="Output PX wide: the largest tile size that fits, tile edges crisp, padded "
                "to PX.",
            ),
        )
    ):
        looked = option(looked)
    return looked


def _looked(
    text: str,
    looks: _Looks,
    *,
    seed: int | None,
    frames: int | None,
    fps: int | None,
    quality: str | None = None,
) -> Scene:
    """The scene with the command line's overrides (see :func:`_look`)."""
    from searchvid.scene import load_scene

    return load_scene(text).with_overrides(
        seed=seed,
        frames=frames,
        fps=fps,
        tile_size=looks.tile_size,
        every=looks.every,
        hud=False if looks.no_hud else None,
        quality=quality,
        width=looks.width,
    )


@main.command()
@_scene
@click.option(
    "-o",
    "--output",
    type=str,
    help="OUT.mp4, OUT.webm (VP9), OUT.gif, OUT.html (a player), OUT.vtt (captions and "
    "chapters, no pixels) or a folder of PNGs (default renders/<scene>.mp4).",
)
@_frames
@click.option("--fps", type=click.IntRange(1, 120), help="Override [video] fps.")
@_seed
@_look
@click.option(
    "--quality",
    type=click.Choice(["draft", "default", "final"]),
    help="Encoder preset: draft (fast), default, final (slow, best).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--snapshots",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write a PNG into this folder whenever the best value improves.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Split the render into ~10 s segments drawn by N worker processes, joined without "
    "re-encoding (MP4 or PNG folder; the same bytes for any N).",
)
@click.option(
    "--start",
    metavar="T",
    help="Render a clip from T: a frame number (120), seconds (12.5s) or m:ss (0:12.5); "
    "a time picks the frame on screen then. Frames and holds as in the whole video.",
)
@click.option(
    "--end",
    metavar="T",
    help="End the clip before T (as --start; frame T, or a frame shown from T on, is left "
    "out). Default: the video's end.",
)
@click.option(
    "--scheduler",
    metavar="local|tcp://HOST:PORT",
    help="Draw the segments on Dask: a LocalCluster (of --jobs workers) or a running "
    "scheduler. Needs searchvid[dask].",
)
def render(
    scene: str,
    output: str | None,
    frames: int | None,
    fps: int | None,
    seed: int | None,
    looks: _Looks,
    quality: str | None,
    quiet: bool,
    snapshots: Path | None,
    jobs: int | None,
    scheduler: str | None,
    start: str | None,
    end: str | None,
) -> None:
    """Render SCENE to a video: .mp4, .webm, .gif, an .html player or a folder of PNG
    frames; or its captions, timed to that video: NAME.vtt and NAME.chapters.vtt. With
    --start/--end, a clip of it."""
    if output is not None and not str(output).strip():
        raise UsageError("-o/--output: the output path is empty")
    loaded = _looked(scene, looks, seed=seed, frames=frames, fps=fps, quality=quality)
    result = loaded.render(
        output,
        progress=wants_progress_bar(quiet=quiet),
        snapshots=snapshots,
        jobs=jobs,
        scheduler=scheduler,
        start=start,
        end=end,
    )
    written = [result.path]
    if result.path.suffix.lower() == ".vtt" and not result.path.is_dir():
        from searchvid.render.vtt import chapters_path

        written.append(chapters_path(result.path))
    try:
        _echo(f"{result}, chapters -> {written[1]}" if len(written) > 1 else str(result))
    except (RunError, _ReaderGoneError):
        for path in written:
            _discard(path)  # the command fails, so it leaves no output behind
        raise


def _discard(path: Path) -> None:
    """Remove a render's output (a file, or a folder of frames)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


@main.command()
@_scene
@click.option(
    "-f",
    "--frame",
    "index",
    type=int,
    default=-1,
    show_default=True,
    help="Frame to draw, from 0; negative counts from the end.",
)
@click.option(
    "--step",
    type=click.IntRange(min=0),
    metavar="N",
    help="Draw the frame of trace step N (the step of searchvid trace); a step that makes no "
    "frame draws the frame on screen at it, the latest before it.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="OUT.png (default renders/<scene>.png).",
)
@_frames
@_fps
@_seed
@_look
def preview(
    scene: str,
    index: int,
    step: int | None,
    output: Path | None,
    frames: int | None,
    fps: int | None,
    seed: int | None,
    looks: _Looks,
) -> None:
    """Draw one frame of SCENE as a PNG, identical to that frame of the full render with the
    same options."""
    import numpy as np

    from searchvid.render.encode import write_png

    loaded = _looked(scene, looks, seed=seed, frames=frames, fps=fps)
    target = output if output is not None else Path("renders") / f"{loaded.stem}.png"
    if target.suffix.lower() != ".png":
        raise UsageError(f"{target}: the preview is a PNG; name it OUT.png")
    shown = f"frame {index}"
    if step is not None:
        source = click.get_current_context().get_parameter_source("index")
        if source is not click.core.ParameterSource.DEFAULT:
            raise UsageError("--step and --frame name the frame twice; give one of them")
        index = loaded.frame_of_step(step)
        shown = f"step {step}: frame {index}"
    image = np.asarray(loaded.preview(index))
    write_png(image, target)
    try:
        _echo(f"{shown} -> {target}")
    except (RunError, _ReaderGoneError):
        _discard(target)
        raise


@main.command()
@_scene
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SHEET.png (default renders/<scene>-storyboard.png).",
)
@click.option(
    "-n",
    "--count",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="Frames evenly spaced in time between the first and the last.",
)
@_frames
@_fps
@_seed
@_look
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def storyboard(
    scene: str,
    output: Path | None,
    count: int,
    frames: int | None,
    fps: int | None,
    seed: int | None,
    looks: _Looks,
    quiet: bool,
) -> None:
    """Draw a contact sheet of SCENE's video: its first frame, COUNT frames evenly spaced
    in time and its last, each labelled with its time in the video."""
    from searchvid.render.output import OutputKind
    from searchvid.render.storyboard import storyboard as draw_storyboard

    loaded = _looked(scene, looks, seed=seed, frames=frames, fps=fps)
    target = output if output is not None else Path("renders") / f"{loaded.stem}-storyboard.png"
    if target.suffix.lower() != ".png":
        raise UsageError(f"{target}: the storyboard is a PNG; name it SHEET.png")
    loaded.check_frames(OutputKind.FOLDER)
    with contextlib.ExitStack() as stack:
        progress = None
        if wants_progress_bar(quiet=quiet):  # the first pass times the frames: the long part
            from searchvid.progress import progress_bar

            progress = stack.enter_context(
                progress_bar(loaded.paced_video.max_frames, label="timing")
            )
        sheet = draw_storyboard(
            loaded.sources(),
            loaded.render_jobs,  # fresh jobs for each pass: views may keep state
            target,
            count=count,
            title=loaded.title,
            progress=progress,
        )
    try:
        _echo(str(sheet))
    except (RunError, _ReaderGoneError):
        _discard(target)
        raise


@main.command()
@_scene
@click.option("--limit", type=click.IntRange(min=0), help="Print at most N events.")
@_frames
@_seed
def trace(scene: str, limit: int | None, frames: int | None, seed: int | None) -> None:
    """Print the event stream of SCENE as JSON lines.

    Each line is one event: {"step", "kind", "depth", "label", "value", "frame", "id",
    "parent"}, with "search" first (the search's index, from 0) when the scene races several
    searches. step counts the search's events from 0; kind is the event's kind (enter,
    backtrack, leaf, expand, ...); depth counts moves from the start; label is the domain's
    label of the event's node; value is the event's value, or null; frame is the index of
    the video frame the event becomes, or null; id is the search-tree node the event is
    about (0 for the root, then numbered as the search creates them; null for an MCTS
    rollout state) and parent that node's parent (null for the root; for a rollout state,
    the tree node the rollout started from).
    """
    for record in _load(scene, seed=seed, frames=frames).trace(limit):
        _echo(json.dumps(record, ensure_ascii=False))


@main.command()
@_scene
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_frames
@_seed
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a scene key, e.g. search.iterations=400 (repeatable; as sweep's --set).",
)
def run(
    scene: str, as_json: bool, frames: int | None, seed: int | None, settings: tuple[str, ...]
) -> None:
    """Run the search of SCENE without rendering and print statistics.

    The search stops where the video would (max_frames), like render and trace. With
    several searches (a race), the race's figures come first, then each search's. With
    --json, one object: events, frames, seconds, peak_rss_mb, best ({label, value, depth})
    and solved, and ended (complete, max_frames or max_events: why the run stopped); a race
    adds searches (one such object per search), failed (the indices of
    searches that raised) and best.search (the index of the search that found best). Exit
    code 1 when a search failed.
    """
    from searchvid.experiments.settings import load_with_settings

    loaded = load_with_settings(scene, settings)
    stats = loaded.with_overrides(seed=seed, frames=frames).run()
    if as_json:
        _echo(json.dumps(stats, ensure_ascii=False))
    else:
        _print_stats(stats)
    failed = stats.get("failed", [])
    if failed:
        raise RunError(f"search[{failed[0]}]: {stats['searches'][failed[0]]['error']}")


def _print_stats(stats: dict[str, Any]) -> None:
    """``run``'s table: one search, or a race and then each of its searches, indented."""
    searches = stats.get("searches")
    what = "race" if searches else "search"
    rows = [
        ("scene", f"{stats['scene']} ({stats['title']})"),
        (what, f"{stats['algorithm']} on {stats['domain']}, seed {stats['seed']}"),
        *_stat_rows(stats),
    ]
    for name, text in rows:
        _echo(f"{name:<9} {text}")
    for index, one in enumerate(searches or []):
        _echo(f"search[{index}] {one['algorithm']}")
        for name, text in _stat_rows(one):
            _echo(f"  {name:<9} {text}")


def _stat_rows(stats: dict[str, Any]) -> list[tuple[str, str]]:
    if "error" in stats:
        return [("events", str(stats["events"])), ("error", stats["error"])]
    solved = {True: "yes", False: "no", None: "n/a (no goal)"}[stats["solved"]]
    cut = bool(stats.get("max_events_reached"))
    best = _describe_best(stats["best"])
    if stats["best"] is not None and "search" in stats["best"]:
        index = stats["best"]["search"]
        best += f" (search[{index}], {stats['searches'][index]['algorithm']})"
    return [
        ("events", str(stats["events"])),
        ("frames", str(stats["frames"])),
        ("seconds", f"{stats['seconds']:.3f}"),
        ("peak RSS", f"{stats['peak_rss_mb']:.1f} MB" if stats["peak_rss_mb"] else "unknown"),
        ("best", best),
        ("solved", solved),
        *([("cut", "by max_events (a search that goes on may do better)")] * cut),
        ("ended", _ENDED.get(str(stats.get("ended")), "?")),
    ]


_ENDED = {
    "complete": "complete (the search ran to its end)",
    "max_frames": "at max_frames (the video filled up; the search was cut)",
    "max_events": "at max_events (the event budget was spent; the search was cut)",
}


def _describe_best(best: dict[str, Any] | None) -> str:
    if best is None:
        return "none (the search reported no improvement)"
    value = best["value"]
    shown = "?" if value is None else f"{value:.4g}"
    return f"{best['label']!r}, value {shown}, depth {best['depth']}"


@main.command()
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(path_type=Path))
def scenes(folder: Path | None) -> None:
    """List the scenes in DIR (default: ./scenes and the shipped ones): file, title, domain,
    algorithm."""
    from searchvid.scene import scene_dirs

    folders = [folder] if folder is not None else scene_dirs()
    existing = [f for f in folders if f.is_dir()]
    if not existing:
        raise UsageError(f"{folders[0]}: no such folder")
    rows = [("FILE", "TITLE", "DOMAIN", "ALGORITHM")]
    seen: set[str] = set()
    for path in (p for f in existing for p in sorted(f.glob("*.toml"))):
        if path.stem in seen:  # ./scenes shadows a shipped scene of the same name
            continue
        seen.add(path.stem)
        rows.append(_scene_row(path))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        cells = [text.ljust(width) for text, width in zip(row, widths, strict=False)]
        _echo("  ".join([*cells, row[3]]))


def _scene_row(path: Path) -> tuple[str, str, str, str]:
    from searchvid.scene import load_scene

    try:
        scene = load_scene(path)
    except SceneError as error:
        where = f"{error.key}: " if error.key else ""
        return (str(path), f"(invalid: {where}{error.message})", "-", "-")
    except UsageError as error:
        return (str(path), f"(invalid: {error})", "-", "-")
    except BaseException as error:  # the scene's plugin raised or exited: list the others
        if is_interrupt(error):
            raise
        return (str(path), f"(invalid: {describe_failure(error, hint=False)})", "-", "-")
    return (str(path), scene.title, scene.domain_name, scene.algorithm)


@main.command()
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
def examples(folder: Path) -> None:
    """Copy the examples into DIR (created if missing): a game written outside searchvid
    (eight_puzzle.py) and its scene, a render from Python (api_render.py) and your own
    search loop into a video (own_loop.py). Nothing is overwritten."""
    from searchvid.resources import examples_dir

    source = examples_dir()
    files = sorted(p for p in source.iterdir() if p.is_file() and p.suffix in (".py", ".toml"))
    if not files:
        raise RunError(f"{source}: the examples are missing from this installation")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"DIR: {folder} is a file, not a folder")
    clashes = [folder / p.name for p in files if (folder / p.name).exists()]
    if clashes:
        raise UsageError(f"{clashes[0]}: exists already; choose an empty DIR")
    folder.mkdir(parents=True, exist_ok=True)
    for path in files:
        partial = folder / f".{path.name}.part"
        partial.write_bytes(path.read_bytes())
        partial.replace(folder / path.name)
    click.echo(f"copied {len(files)} files to {folder}: " + ", ".join(p.name for p in files))
    click.echo(f"next: cd {folder} && searchvid render eight-puzzle-astar.toml")


@main.command()
@click.argument("name", metavar="NAME")
@click.option(
    "--players",
    type=click.Choice(["1", "2"]),
    default="1",
    show_default=True,
    help="1: a puzzle (Lights Out); 2: a two-player game (k in a row).",
)
@click.option("--grid", default="3x3", show_default=True, help="The board: ROWSxCOLS.")
def new(name: str, players: str, grid: str) -> None:
    """Start a game of your own: write NAME.py (a domain with every hook, commented),
    NAME.toml (a scene naming it) and test_NAME.py (the conformance checks) here.

    Then: searchvid check NAME:Name, searchvid render NAME.toml -o NAME.gif, pytest."""
    from searchvid.scaffold import class_name, parse_grid, project, write_project

    made = project(name, players=int(players), grid=parse_grid(grid))
    for path in write_project(made, Path.cwd()):
        click.echo(f"wrote {path.name}")
    click.echo(f"next: searchvid check {name}:{class_name(name)}")
    click.echo(f"      searchvid render {name}.toml -o {name}.gif")


@main.command()
@click.argument("name", metavar="NAME")
def check(name: str) -> None:
    """Run the domain conformance checks on NAME.

    NAME is a registered domain, an import path module:Class (the current folder first on the
    import path), or a scene file whose domain (with its options) is checked. Exit code 1
    when a check fails.
    """
    from searchvid.conformance import CHECKS, check_domain, format_report

    domain = _domain_to_check(name)
    failures = check_domain(domain)
    _echo(format_report(domain.name, failures, len(CHECKS)))
    if failures:
        sys.exit(1)


def _domain_to_check(name: str) -> Domain:
    from searchvid.domains import make_domain
    from searchvid.scene import load_scene

    if name.endswith(".toml"):
        return load_scene(name).domain
    try:
        return make_domain(name, {}, folder=Path.cwd())
    except OptionError as error:
        raise UsageError(f"{name}: {error.message}") from None


@main.command()
@click.argument("names", metavar="[NAME]...", nargs=-1)
def domains(names: tuple[str, ...]) -> None:
    """List the domains (or the named ones): summary, options, value functions."""
    from searchvid.reference import format_domains

    _echo(format_domains(list(names) or None), nl=False)


def _add_sweep() -> None:
    from searchvid.sweepcli import sweep

    main.add_command(sweep)


_add_sweep()


@main.command()
@click.argument("names", metavar="[NAME]...", nargs=-1)
def algorithms(names: tuple[str, ...]) -> None:
    """List the search algorithms (or the named ones): summary and options."""
    from searchvid.reference import format_algorithms

    _echo(format_algorithms(list(names) or None), nl=False)
