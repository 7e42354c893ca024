"""The ``searchvid`` command line: a thin click group over the library.

Exit codes: 0 success; 2 bad usage or a bad scene file; 1 a failure while running; 130
interrupted. Every error is one line ``Error: ...`` on stderr, never a traceback (set
``SEARCHVID_DEBUG=1`` to see the traceback of an unexpected error).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import click

import searchvid
from searchvid import __version__
from searchvid.errors import RunError, SceneError, UsageError
from searchvid.memory import peak_rss_mb
from searchvid.scene import Scene, load_scene

FORMATS = (".mp4", ".gif")
"""Output suffixes of ``render``; any other target without a suffix is a PNG folder."""


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
        """Run the command line; always exits (standalone mode is always on)."""
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except click.Abort:
            _fail("interrupted", 130)
        except UsageError as error:
            _fail(str(error), 2)
        except RunError as error:
            _fail(str(error), 1)
        except OSError as error:
            where = f"{error.filename}: " if error.filename else ""
            _fail(f"{where}{error.strerror or error}", 1)
        except Exception as error:  # a bug: still one line, as the contract promises
            if os.environ.get("SEARCHVID_DEBUG"):
                raise
            _fail(f"internal error: {type(error).__name__}: {error}", 1)
        sys.exit(result if isinstance(result, int) else 0)


def _fail(message: str, code: int) -> NoReturn:
    click.echo("Error: " + " ".join(message.split()), err=True)
    sys.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="searchvid")
def main() -> None:
    """searchvid: turn tree searches on board games and puzzles into videos.

    SCENE is a path to a .toml scene file, or a bare name looked up in scenes/.
    """


def scene_dirs() -> list[Path]:
    """Where bare scene names are looked up: ``scenes/`` here, then the project's own."""
    here = Path("scenes")
    project = Path(searchvid.__file__).resolve().parent.parent / "scenes"
    found = [here]
    if project.resolve() != here.resolve():
        found.append(project)
    return found


def resolve_scene(text: str) -> Path:
    """The scene file named by ``text``: a path to a ``.toml`` file, or a bare name.

    Raises:
        UsageError: No such file, or no scene of that name (listing the known ones).
    """
    path = Path(text)
    if path.suffix == ".toml" or len(path.parts) > 1 or path.exists():
        if not path.is_file():
            raise UsageError(f"{text}: no such scene file")
        return path
    for folder in scene_dirs():
        candidate = folder / f"{text}.toml"
        if candidate.is_file():
            return candidate
    known = sorted({p.stem for folder in scene_dirs() for p in folder.glob("*.toml")})
    listed = ", ".join(known) or "none"
    raise UsageError(f"{text}: no such scene file or scene name; known scenes: {listed}")


def _load(text: str, *, seed: int | None, frames: int | None, fps: int | None = None) -> Scene:
    scene = load_scene(resolve_scene(text))
    return scene.with_overrides(seed=seed, max_frames=frames, fps=fps)


_scene = click.argument("scene", metavar="SCENE")
_seed = click.option("--seed", type=click.IntRange(min=0), help="Override the scene's seed.")
_frames = click.option("--frames", type=click.IntRange(min=1), help="Override [video] max_frames.")


@main.command()
@_scene
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    help="OUT.mp4, OUT.gif or a folder of PNGs (default renders/<scene>.mp4).",
)
@_frames
@click.option("--fps", type=click.IntRange(1, 120), help="Override [video] fps.")
@_seed
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--snapshots",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write a PNG into this folder whenever the best value improves.",
)
def render(
    scene: str,
    output: Path | None,
    frames: int | None,
    fps: int | None,
    seed: int | None,
    quiet: bool,
    snapshots: Path | None,
) -> None:
    """Render SCENE to a video: .mp4, .gif or a folder of PNG frames."""
    loaded = _load(scene, seed=seed, frames=frames, fps=fps)
    from searchvid.render.pipeline import render as render_video  # imports the encoders

    target = output if output is not None else Path("renders") / f"{loaded.stem}.mp4"
    if not target.is_dir() and target.suffix and target.suffix.lower() not in FORMATS:
        raise UsageError(f"{target}: unknown output format; use .mp4, .gif or a folder")
    if output is None:
        target.parent.mkdir(parents=True, exist_ok=True)
    show_bar = not quiet and sys.stderr.isatty() and not os.environ.get("CI")
    with _progress(loaded.video.max_frames, enabled=show_bar) as progress:
        result = render_video(
            loaded.events(), _job(loaded), target, progress=progress, snapshots=snapshots
        )
    click.echo(f"{result.frames} frames in {result.seconds:.1f} s -> {result.path}")


@contextmanager
def _progress(total: int, *, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress callback (frames done so far) drawing click's bar on stderr, or None.

    ``total`` is max_frames, an upper bound (searches often end sooner), so the bar shows the
    frame count rather than a time estimate, and closes on the frames actually rendered.
    """
    if not enabled:
        yield None
        return
    with click.progressbar(
        length=total, label="rendering", file=sys.stderr, show_eta=False, show_pos=True
    ) as bar:

        def advance(done: int) -> None:
            bar.update(done - bar.pos)

        yield advance
        # The cap was only an upper bound: close on the frames actually rendered.
        bar.length = max(bar.pos, 1)
        bar.render_progress()


def _job(scene: Scene) -> Any:
    from searchvid.render.pipeline import RenderJob

    score = scene.score()
    return RenderJob(
        view=scene.view(),
        video=scene.video,
        title=scene.hud_title,
        score=score,
        values=score is not None,
    )


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
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="OUT.png (default renders/<scene>.png).",
)
@_frames
@_seed
def preview(
    scene: str, index: int, output: Path | None, frames: int | None, seed: int | None
) -> None:
    """Draw one frame of SCENE as a PNG, identical to that frame of the full render."""
    loaded = _load(scene, seed=seed, frames=frames)
    from searchvid.render.pipeline import render_frame, write_png

    target = output if output is not None else Path("renders") / f"{loaded.stem}.png"
    if target.suffix.lower() != ".png":
        raise UsageError(f"{target}: the preview is a PNG; name it OUT.png")
    image = render_frame(loaded.events(), _job(loaded), index)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_png(image, target)
    click.echo(f"frame {index} -> {target}")


@main.command()
@_scene
@click.option("--limit", type=click.IntRange(min=0), help="Print at most N events.")
@_frames
@_seed
def trace(scene: str, limit: int | None, frames: int | None, seed: int | None) -> None:
    """Print the event stream of SCENE as JSON lines.

    Each line is {"step", "kind", "depth", "label", "value", "frame"}; frame is the index of
    the video frame the event becomes, or null.
    """
    from searchvid.render.policy import assign_frames

    loaded = _load(scene, seed=seed, frames=frames)
    for count, (event, frame) in enumerate(assign_frames(loaded.events(), loaded.video)):
        if limit is not None and count >= limit:
            break
        record = {
            "step": event.step,
            "kind": event.kind.value,
            "depth": event.depth,
            "label": loaded.label(event.node),
            "value": _finite(event.value),
            "frame": frame,
        }
        click.echo(json.dumps(record, ensure_ascii=False))


def _finite(value: float | None) -> float | None:
    """JSON has no infinities or NaN: those become null."""
    return value if value is not None and math.isfinite(value) else None


@main.command()
@_scene
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_frames
@_seed
def run(scene: str, as_json: bool, frames: int | None, seed: int | None) -> None:
    """Run the search of SCENE without rendering and print statistics.

    The search stops where the video would (max_frames), like render and trace.
    """
    stats = run_statistics(_load(scene, seed=seed, frames=frames))
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False))
        return
    best = stats["best"]
    solved = {True: "yes", False: "no", None: "n/a (no goal)"}[stats["solved"]]
    rows = [
        ("scene", f"{stats['scene']} ({stats['title']})"),
        ("search", f"{stats['algorithm']} on {stats['domain']}, seed {stats['seed']}"),
        ("events", str(stats["events"])),
        ("frames", str(stats["frames"])),
        ("seconds", f"{stats['seconds']:.3f}"),
        ("peak RSS", f"{stats['peak_rss_mb']:.1f} MB" if stats["peak_rss_mb"] else "unknown"),
        ("best", _describe_best(best)),
        ("solved", solved),
    ]
    for name, text in rows:
        click.echo(f"{name:<9} {text}")


def _describe_best(best: dict[str, Any] | None) -> str:
    if best is None:
        return "none (the search reported no improvement)"
    value = best["value"]
    shown = "?" if value is None else f"{value:.4g}"
    return f"{best['label']!r}, value {shown}, depth {best['depth']}"


def run_statistics(scene: Scene) -> dict[str, Any]:
    """Run ``scene``'s search up to its frame limit; the statistics of ``run --json``."""
    from searchvid.render.policy import assign_frames
    from searchvid.search.observer import BestTracker

    tracker = BestTracker()
    root = scene.root()
    events = frames = 0
    start = time.perf_counter()
    tracker.begin(root)
    try:
        for event, frame in assign_frames(scene.search().traverse(root), scene.video):
            tracker.event(event)
            events += 1
            frames += frame is not None
    finally:
        tracker.end()
    seconds = time.perf_counter() - start
    best = tracker.best
    solved = scene.is_goal(best.node) if best is not None else scene.is_goal(root)
    return {
        "scene": str(scene.path),
        "title": scene.title,
        "domain": scene.domain_name,
        "algorithm": scene.algorithm,
        "seed": scene.seed,
        "events": events,
        "frames": frames,
        "seconds": round(seconds, 6),
        "peak_rss_mb": peak_rss_mb(),
        "best": None
        if best is None
        else {
            "label": scene.label(best.node),
            "value": _finite(best.value),
            "depth": best.depth,
        },
        "solved": solved,
    }


@main.command()
@click.argument("folder", metavar="[DIR]", required=False, type=click.Path(path_type=Path))
def scenes(folder: Path | None) -> None:
    """List the scenes in DIR (default scenes/): file, title, domain, algorithm."""
    folders = [folder] if folder is not None else scene_dirs()
    existing = [f for f in folders if f.is_dir()]
    if not existing:
        raise UsageError(f"{folders[0]}: no such folder")
    rows = [("FILE", "TITLE", "DOMAIN", "ALGORITHM")]
    for path in sorted(existing[0].glob("*.toml")):
        try:
            scene = load_scene(path)
        except SceneError as error:
            rows.append((str(path), f"(invalid: {error.key}: {error.message})", "-", "-"))
            continue
        rows.append((str(path), scene.title, scene.domain_name, scene.algorithm))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        cells = [text.ljust(width) for text, width in zip(row, widths, strict=False)]
        click.echo("  ".join([*cells, row[3]]))
