"""SmartPlay's two global random sources, rebuilt from a seed without numpy.

SmartPlay never seeds anything: all its draws come from Python's global ``random`` and numpy's
global legacy ``RandomState``. plancheck's ``seed N`` means the state right after
``random.seed(N); numpy.random.seed(N)`` (after ``import smartplay``, which itself draws once from
numpy), when the environment is made and reset. Both generators are MT19937: Python's ``random``
is reproduced by ``random.Random(N)``; numpy's legacy seeding of an integer is MT19937's
``init_genrand(N)``, which gives a different state, rebuilt here, and its ``random_sample`` is the
same 53-bit double as Python's ``random()``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_N = 624


def numpy_legacy(seed: int) -> random.Random:
    """A generator whose ``random()`` gives the doubles of ``numpy.random.RandomState(seed).random_sample()``.

    >>> [round(numpy_legacy(0).random(), 6) for _ in range(1)]
    [0.548814]
    """
    if not 0 <= seed < 2 ** 32:
        raise ValueError(f"numpy's legacy seed must be in 0 .. 2**32 - 1, not {seed}")
    state = [0] * _N
    state[0] = value = seed
    for i in range(1, _N):
        value = (1812433253 * (value ^ (value >> 30)) + i) & 0xFFFFFFFF
        state[i] = value
    generator = random.Random(0)
    generator.setstate((3, (*state, _N), None))
    return generator


def choice(generator: random.Random, p: Sequence[float]) -> tuple[int, float]:
    """``numpy.random.choice(len(p), p=p)`` of the legacy generator: one uniform draw ``u`` and the
    first index whose normalised cumulative probability exceeds it (its ``searchsorted(side='right')``).
    Returns the index and ``u``."""
    cdf = _cumulative(tuple(p))
    u = generator.random()
    return bisect_right(cdf, u), u


@lru_cache(maxsize=64)
def _cumulative(p: tuple[float, ...]) -> tuple[float, ...]:
    """numpy's ``p.cumsum()`` (added in order) divided by its last value."""
    cdf, total = [], 0.0
    for probability in p:
        total += probability
        cdf.append(total)
    return tuple(value / cdf[-1] for value in cdf)


@dataclass
class Draws:
    """The two global generators of a SmartPlay process seeded with ``seed``: ``python`` (``random``)
    and ``numpy`` (numpy's legacy global state, whose ``random()`` is ``np.random.uniform()``)."""

    python: random.Random
    numpy: random.Random

    @classmethod
    def seeded(cls, seed: int) -> Draws:
        return cls(random.Random(seed), numpy_legacy(seed))
