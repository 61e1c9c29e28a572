"""The real ``crafter`` 1.8.3 as the runtime, made reproducible across processes without editing it.

Two things stand between crafter and an exact replay of a logged episode:

- Creature despawn order. ``World`` keeps each chunk's objects in a Python ``set``; the balancing pass
  (every 10 steps) lists a chunk's creatures from that set and despawns ``creatures[randint(n)]``,
  so *which* creature goes depends on memory addresses, which differ from process to process.
  :class:`FixedOrderWorld` hands the balancing pass each chunk's objects in object-index order (the
  order they were added to the world). It is installed on one env's world instance only (its class
  is swapped on that instance); crafter's module and every other env are left as they are.
- Rendering consumes randomness: at night the local view draws ``uniform(32, 127, (63, 49))`` noise
  from the world's RNG. A replay must draw the same numbers. :class:`CrafterEnv` renders as crafter
  does (``render=True``), or, with ``render=False``, draws exactly the night noise and skips the
  picture (the text never needs it); tests prove both leave the RNG in the same state.

Seeding follows crafter (and so SmartPlay): the env's seed ``s`` and episode counter ``k`` give the
world seed ``hash((s, k)) % (2**31 - 1)`` at the k-th reset (:func:`world_seed`). SmartPlay builds
its env with ``seed=None``, so crafter draws ``s = np.random.randint(0, 2**31 - 1)`` from numpy's
global RNG; :func:`smartplay_crafter_seed` gives ``s`` for a run that seeded numpy's global RNG with
``n`` after importing smartplay.
"""

from __future__ import annotations

import copy
import importlib.util
from functools import cache
from typing import Any

import numpy as np

from plancheck.errors import PlancheckError

CRAFTER_VERSION = "1.8.3"
SEED_MODULUS = 2**31 - 1


class CrafterMissingError(PlancheckError):
    """The optional ``crafter`` package is not installed."""


def require_crafter() -> None:
    """Raise a clear error when crafter (the runtime of this world) is missing or not 1.8.3."""
    if importlib.util.find_spec("crafter") is None:
        raise CrafterMissingError("the crafter world runs on the crafter package: pip install 'plancheck[crafter]' "
                                  f"(crafter=={CRAFTER_VERSION})")
    from importlib.metadata import version

    found = version("crafter")
    if found != CRAFTER_VERSION:
        raise CrafterMissingError(f"the crafter world needs crafter=={CRAFTER_VERSION}; found {found}")


def world_seed(seed: int, episode: int) -> int:
    """The world seed crafter uses at the ``episode``-th reset (1-based) of an env built with ``seed``.

    >>> [world_seed(0, k) for k in (1, 2, 3)]
    [1256191933, 744553801, 1246819891]
    """
    return hash((seed, episode)) % SEED_MODULUS


def smartplay_crafter_seed(global_seed: int) -> int:
    """The env seed of SmartPlay's ``Crafter-v0`` when numpy's global RNG was seeded with ``global_seed``.

    SmartPlay passes ``seed=None``; crafter then draws ``np.random.randint(0, 2**31 - 1)``.
    """
    return int(np.random.RandomState(global_seed).randint(0, SEED_MODULUS))


def _ordered_chunks(world: Any) -> dict[Any, list[Any]]:
    index = world._obj_map
    return {key: sorted(objs, key=lambda obj: int(index[obj.pos[0], obj.pos[1]]))
            for key, objs in world._chunks.items()}


@cache
def fixed_order_class(world_class: type) -> type:
    """A subclass of ``world_class`` (crafter's ``World`` or a copy of it) whose ``chunks`` is in index order."""
    return type(f"FixedOrder{world_class.__name__}", (world_class,),
                {"chunks": property(_ordered_chunks, doc="Each chunk's objects in object-index order."),
                 "__doc__": "crafter's World whose balancing pass sees each chunk's objects in index order."})


def install_fixed_order(env: Any) -> None:
    """Give one crafter env (crafter's ``Env`` or SmartPlay's copy of it) the fixed despawn order.

    Only this env's world changes (its class becomes a subclass of its own class); nothing global does.
    """
    world = env._world
    if not getattr(type(world), "__name__", "").startswith("FixedOrder"):
        world.__class__ = fixed_order_class(type(world))


@cache
def _env_class() -> type:
    require_crafter()
    import crafter

    class CrafterEnv(crafter.Env):
        """crafter's Env with the fixed despawn order; ``render=False`` draws the night noise only."""

        def __init__(self, *args: Any, render: bool = True, fixed_order: bool = True, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._renders = render
            grid = np.asarray(self._local_view._grid)
            self._noise_shape = tuple(int(v) for v in grid * (np.asarray(self._size) // self._view))
            if fixed_order:
                install_fixed_order(self)

        def _obs(self) -> Any:
            if self._renders:
                return super()._obs()
            if self._world.daylight < 0.5:  # LocalView._light -> _noise: the same draws, no picture
                self._world.random.uniform(32, 127, self._noise_shape)
            return None

    return CrafterEnv


def make_env(seed: int, episode: int = 1, *, render: bool = False, fixed_order: bool = True,
             length: int = 10000) -> Any:
    """A crafter env (SmartPlay's settings: area 64x64, view 9x9, size 64x64, reward on) that will build
    the world of the given episode at its next ``reset()``.

    ``render=False`` skips the pictures but draws their randomness (same dynamics, faster);
    ``fixed_order=False`` keeps crafter's process-dependent despawn order (for comparisons only).
    """
    env_class = _env_class()
    if episode < 1:
        raise ValueError(f"episodes count from 1, got {episode}")
    env = env_class((64, 64), (9, 9), (64, 64), True, length, seed, render=render, fixed_order=fixed_order)
    env._episode = episode - 1  # reset() increments it first
    return env


_RESET: dict[tuple, Any] = {}
_RESET_KEPT = 16


def reset_env(seed: int, episode: int = 1, *, render: bool = False, length: int = 10000) -> Any:
    """A crafter env right after its ``reset()`` for that world (see :func:`make_env`).

    crafter's world generation takes about a second and depends only on the seed and the episode,
    so the last few reset envs are kept and a deep copy of one is handed out (a copy replays exactly
    as a freshly reset env does: the tests compare them).
    """
    key = (seed, episode, render, length)
    if key not in _RESET:
        env = make_env(seed, episode, render=render, length=length)
        env.reset()
        if len(_RESET) >= _RESET_KEPT:
            _RESET.pop(next(iter(_RESET)))
        _RESET[key] = env
    return copy.deepcopy(_RESET[key])


def materials(env: Any) -> np.ndarray:
    """The world's material map as names' ids (crafter's ``_mat_map``), a read-only copy indexed ``[x, y]``."""
    grid = env._world._mat_map.copy()
    grid.setflags(write=False)
    return grid
