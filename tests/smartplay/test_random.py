"""SmartPlay's global generators rebuilt without numpy equal numpy's legacy ones."""

from __future__ import annotations

import random

import numpy as np

from plancheck.domains.smartplay._random import Draws, choice, numpy_legacy


def test_the_legacy_generator_gives_numpys_doubles():
    for seed in [*range(300), 2 ** 31, 2 ** 32 - 1]:
        ours, theirs = numpy_legacy(seed), np.random.RandomState(seed)
        assert [ours.random() for _ in range(20)] == [theirs.random_sample() for _ in range(20)]


def test_seeding_the_global_generators_is_what_draws_reproduce():
    for seed in range(50):
        random.seed(seed)
        np.random.seed(seed)
        draws = Draws.seeded(seed)
        assert [random.random() for _ in range(5)] == [draws.python.random() for _ in range(5)]
        assert [np.random.uniform() for _ in range(5)] == [draws.numpy.random() for _ in range(5)]


def test_choice_is_numpys_legacy_choice():
    orders = ([0.2, 0.2, 0.6], [0.2, 0.6, 0.2], [0.6, 0.2, 0.2], [0.1, 0.2, 0.3, 0.4], [1.0, 0.0], [0.0, 1.0])
    for seed in range(200):
        for p in orders:
            theirs = np.random.RandomState(seed)
            ours = numpy_legacy(seed)
            assert [choice(ours, p)[0] for _ in range(30)] == [int(theirs.choice(len(p), p=p)) for _ in range(30)]
