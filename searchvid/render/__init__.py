"""Rendering: tile atlas, cached canvas, HUD, frame policy and encoders.

Knows nothing of any particular domain: a domain supplies a :class:`~searchvid.render.view.View`
(node -> tile grid) and :mod:`searchvid.render.pipeline` does the rest. Import the submodules
directly; this package imports nothing so that domains can use the view contract cheaply.
"""
