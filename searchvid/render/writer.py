"""The push-style writer: any loop becomes a video, one :meth:`VideoWriter.observe` a frame."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from searchvid.errors import RunError, UsageError
from searchvid.render.canvas import FrameBuffer
from searchvid.render.encode import Encoder, open_encoder
from searchvid.render.frame import FramePainter
from searchvid.render.job import RenderJob, RenderResult, track
from searchvid.render.output import check_target
from searchvid.render.settings import VideoOptions
from searchvid.render.view import View
from searchvid.search.events import Event, EventKind


class VideoWriter:
    """Turns any loop into a video: call :meth:`observe` with each state it visits.

    The push-style counterpart of a scene's render (the seeds' ``VideoObserver``), through the
    same cached canvas, HUD and encoders: each call is one frame, and only the tiles whose id
    changed are redrawn. Use it as a context manager; the file appears when the block ends
    without an error, and :attr:`result` then holds the :class:`RenderResult`::

        with VideoWriter("walk.mp4", MyDomain(options).view(), fps=12) as video:
            for node in my_search(root):
                video.observe(node)
        print(video.result)

    Args:
        out: ``NAME.mp4``, ``NAME.gif``, ``NAME.html`` (a player) or a folder of PNG frames.
        view: Draws the nodes (a domain's ``view()``, or a :class:`~searchvid.GridView`).
        fps: Frames per second, 1 to 120.
        tile_size: Pixels per tile edge (even, 8 to 512).
        hud: Draw the status strip (title, step, depth, value, best so far).
        title: The strip's first line.
        hold_last: Seconds the last frame stays on screen.
        quality: MP4 encoder preset: ``"draft"``, ``"default"`` or ``"final"``.

    Raises:
        UsageError: A bad setting (naming it and what is allowed) or output path.
    """

    def __init__(
        self,
        out: str | os.PathLike[str],
        view: View,
        *,
        fps: int = 12,
        tile_size: int = 100,
        hud: bool = True,
        title: str = "",
        hold_last: float = 2.0,
        quality: str = "default",
    ) -> None:
        from searchvid.errors import OptionError
        from searchvid.options import build_options

        settings: dict[str, Any] = {"fps": fps, "tile_size": tile_size, "hud": hud}
        settings |= {"hold_last": hold_last, "quality": quality}
        try:
            video = build_options(VideoOptions, settings)
        except OptionError as error:
            raise UsageError(f"VideoWriter: {error}") from None
        self.path = Path(out)
        if not os.fspath(self.path).strip():
            raise UsageError("VideoWriter: the output path is empty")
        check_target(self.path)  # an unusable output path fails before any work
        self._job = RenderJob(view=view, video=video, title=title)
        self._painter: FramePainter | None = None
        self._buffer: FrameBuffer | None = None
        self._encoder: Encoder | None = None
        self._frames = 0
        self._best: float | None = None
        self._start = 0.0
        self.result: RenderResult | None = None
        """The render's result once the ``with`` block has ended without an error."""

    @property
    def frames(self) -> int:
        """Frames written so far."""
        return self._frames

    def __enter__(self) -> VideoWriter:
        if self._encoder is not None or self.result is not None:
            raise RuntimeError("a VideoWriter writes one video; make a new one")
        self._start = time.perf_counter()
        painter = FramePainter([track(self._job, None)], self._job.video)
        encoder = open_encoder(
            self.path,
            width=painter.width,
            height=painter.height,
            video=self._job.video,
            palette=painter.palette,
            title=self._job.title,
        )
        encoder.__enter__()
        try:
            self._buffer = painter.open(encoder.pixel_format)
        except BaseException as error:
            encoder.__exit__(type(error), error, None)
            raise
        self._painter, self._encoder = painter, encoder
        return self

    def observe(self, node: Any, *, depth: int | None = None, value: float | None = None) -> None:
        """Add one frame showing ``node``.

        Args:
            node: A state the view can draw.
            depth: Shown in the status strip (None: ``-``).
            value: The node's value, shown with the best value so far (None: none).
        """
        painter, buffer, encoder = self._painter, self._buffer, self._encoder
        if painter is None or buffer is None or encoder is None:
            raise RuntimeError("observe() is called inside `with VideoWriter(...) as video:`")
        if value is not None and (self._best is None or value > self._best):
            self._best = value
        event = Event(EventKind.ENTER, node, depth if depth is not None else 0, self._frames, value)
        painter.observe(0, event)
        painter.draw(0, event, self._best)
        encoder.write(buffer.frame, buffer.take_dirty())
        self._frames += 1

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: object,
    ) -> None:
        encoder, self._encoder, self._painter, self._buffer = self._encoder, None, None, None
        if encoder is None:
            return
        if exc_type is None and self._frames == 0:
            encoder.__exit__(RunError, RunError("no frames"), None)
            raise RunError(f"no frames: observe() was never called, so {self.path} was not written")
        encoder.__exit__(exc_type, exc, None)
        if exc_type is None:
            self.result = RenderResult(
                frames=self._frames,
                encoded_frames=encoder.encoded_frames,
                events=self._frames,
                seconds=time.perf_counter() - self._start,
                path=self.path,
            )
