"""rgb_to_yuv420 converts tall frames in bands of rows (less memory at once): the planes equal
those of the whole frame converted in one go."""

from __future__ import annotations

import numpy as np
import pytest

from searchvid.render import yuv


def test_banded_conversion_equals_the_whole_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, size=(3 * yuv._BAND + 6, 34, 3), dtype=np.uint8)
    banded = yuv.rgb_to_yuv420(rgb)
    monkeypatch.setattr(yuv, "_BAND", 10**9)  # no banding: the whole frame at once
    whole = yuv.rgb_to_yuv420(rgb)
    for k in range(3):
        assert np.array_equal(banded[k], whole[k])
    assert banded[0].shape == (len(rgb), 34)
    assert banded[1].shape == (len(rgb) // 2, 17)
