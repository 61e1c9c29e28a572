"""The L2/L3 observational checker: it accepts every episode the rules can produce, rejects what they
cannot, and says why in plain words."""

from __future__ import annotations

import random
import re

import pytest

from plancheck.domains.smartplay.messenger import data, prompts
from plancheck.domains.smartplay.messenger.belief import Inconsistent, Tracker
from plancheck.domains.smartplay.messenger.engine import Level
from plancheck.domains.smartplay.messenger.instance import STEP_LIMITS, start
from plancheck.domains.smartplay.messenger.observe import ObservationError, read
from plancheck.domains.smartplay.messenger.policy import Planner
from plancheck.domains.smartplay.messenger.run import Runner, domain, level_frame
from plancheck.domains.smartplay.messenger.tables import start_layouts


def episode(level: int, seed: int, planner: bool = False) -> tuple[str, list[list]]:
    game = Runner(start(level, seed), dynamics_seed=seed + 500)
    rng, player = random.Random(seed), Planner(1)
    first, steps = game.reset(), []
    for _ in range(STEP_LIMITS[level]):
        action = player.act(game.level) if planner else rng.randrange(5)
        step = game.step(action)
        steps.append([action, step.observation, step.reward, step.done])
        if step.done:
            break
    return first, steps


def check(level: int, first: str, steps: list[list]) -> None:
    tracker = Tracker(level, read(first))
    for index, (action, text, reward, done) in enumerate(steps, start=1):
        try:
            tracker.step(action, read(text), reward, done)
        except Inconsistent as error:
            raise Inconsistent(f"step {index}: {error}") from None


@pytest.mark.parametrize("level", [2, 3])
def test_every_episode_of_the_rules_is_accepted(level):
    for seed in range(60):
        check(level, *episode(level, seed))
    for seed in range(8):
        check(level, *episode(level, seed, planner=True))


def test_a_distance_the_moves_cannot_produce_is_rejected_with_what_was_possible():
    first, steps = episode(2, 1)
    text = steps[0][1]
    line = next(x for x in text.split("\n") if "steps to your" in x)
    d = int(re.search(r" (\d+) steps", line).group(1))
    steps[0][1] = text.replace(line, line.replace(f" {d} steps", f" {d + 3} steps"))
    said = r"step 1: the text says '\w+ \d+ steps to your [a-z-]+', but the rules allow the \w+ only: "
    with pytest.raises(Inconsistent, match=said):
        check(2, first, steps)


def test_a_reward_nothing_explains_is_rejected():
    first, steps = episode(2, 2)
    steps[0][2] = 1.0
    with pytest.raises(Inconsistent, match="step 1: reward 1, .* is not what the rules allow here"):
        check(2, first, steps)


def test_a_first_text_of_no_start_layout_is_rejected():
    first, _ = episode(2, 3)
    with pytest.raises(Inconsistent, match="matches none of the 24 start layouts"):
        Tracker(2, read(first.replace(" steps to your", "0 steps to your", 1)))
    with pytest.raises(Inconsistent, match="not the enemy, message and goal of any"):
        Tracker(2, read(first.replace("- ", "- ", 1).split("\n- ")[0] + "\n- " + "airplane 3 steps to your west"))


def _mutations(level: int, count: int):
    rng = random.Random(level * 7)
    made = 0
    seed = 0
    while made < count:
        seed += 1
        first, steps = episode(level, seed)
        k = rng.randrange(len(steps))
        lines = [x for x in steps[k][1].split("\n") if "steps to your" in x]
        if not lines:
            continue
        line = rng.choice(lines)
        d = int(re.search(r" (\d+) steps", line).group(1)) + rng.choice((-1, 1))
        if d < 1:
            continue
        steps[k][1] = steps[k][1].replace(line, re.sub(r" \d+ steps", f" {d} steps", line))
        made += 1
        yield first, steps


@pytest.mark.parametrize("level, least", [(2, 68), (3, 60)])
def test_most_off_by_one_distances_are_caught(level, least):
    caught = 0
    for first, steps in _mutations(level, 80):
        try:
            check(level, first, steps)
        except (Inconsistent, ObservationError):
            caught += 1
    assert caught >= least  # the rest are other possible moves (for L2 checked exactly below); L3 hides decoys


def witness(level: int, first: str, steps: list[list]) -> bool:
    """Whether some start layout, variant and sequence of entity moves produces the log exactly
    (a brute-force search on the engine, independent of the checker)."""
    names = read(first).names()
    game = next(g for g in data.test_games() if set(names) == {g.enemy, g.message, g.goal})
    ids = {"enemy": data.ENTITY_ID[game.enemy], "message": data.ENTITY_ID[game.message],
           "goal": data.ENTITY_ID[game.goal], "decoy_message": data.ENTITY_ID[game.message],
           "decoy_goal": data.ENTITY_ID[game.goal]}

    failed: set = set()

    def search(level_: Level, k: int) -> bool:
        if k == len(steps):
            return True
        action, text, reward, done = steps[k]
        saved = level_.save()
        if (k, saved[2:], id(level_.domain)) in failed:
            return False
        movers = [s for key in level_.keys for s in level_.live[key] if s.type.cls in ("Chaser", "Fleeing")]
        choices = [level_.options(s) for s in movers]
        combos = [[]]
        for options in choices:
            combos = [c + [o] for c in combos for o in options]
        for combo in combos:
            level_.load(saved)
            picked = dict(zip([s.id for s in movers], combo))
            got = level_.tick(action, choose=lambda sprite, options: picked[sprite.id])
            if got == reward and level_.ended == done and \
                    prompts.observation(level_frame(level_, ids), action) == text and search(level_, k + 1):
                return True
        level_.load(saved)
        failed.add((k, saved[2:], id(level_.domain)))
        return False

    for variant in data.variant_files(level):
        stage = domain(level, variant.name)
        for name, created in start_layouts(level):
            candidate = Level(stage, created, random.Random(0))
            if prompts.observation(level_frame(candidate, ids)) == first and search(candidate, 0):
                return True
    return False


def test_l2_checker_is_exact_on_mutated_logs_a_witness_exactly_when_accepted():
    accepted = rejected = 0
    for first, steps in _mutations(2, 150):
        try:
            check(2, first, steps)
        except (Inconsistent, ObservationError):
            rejected += 1
            if rejected <= 10:
                assert not witness(2, first, steps), "the checker rejected a log the rules produce"
            continue
        accepted += 1
        assert witness(2, first, steps), "the checker accepted a log no run of the rules produces"
    assert accepted >= 5 and rejected >= 100


def _tampered(level: int, count: int):
    """Random episodes, each as played and with one step changed: a distance, a direction, the
    reward, the action or the end flag."""
    rng = random.Random(level * 31)
    directions = ("north", "south", "west", "east", "north-west", "north-east", "south-west", "south-east")
    for seed in range(count):
        first, steps = episode(level, seed, planner=seed % 10 == 0)
        yield first, steps
        changed = [list(step) for step in steps]
        k = rng.randrange(len(changed))
        lines = [x for x in changed[k][1].split("\n") if "steps to your" in x]
        kind = rng.randrange(5) if lines else rng.randrange(2, 5)
        if kind == 0:
            line = rng.choice(lines)
            d = max(1, int(re.search(r" (\d+) steps", line).group(1)) + rng.choice((-1, 1, 2)))
            changed[k][1] = changed[k][1].replace(line, re.sub(r" \d+ steps", f" {d} steps", line))
        elif kind == 1:
            line = rng.choice(lines)
            changed[k][1] = changed[k][1].replace(line, line.rsplit(" ", 1)[0] + " " + rng.choice(directions))
        elif kind == 2:
            changed[k][2] = rng.choice((0.0, 0.5, 1.0, -1.0))
        elif kind == 3:
            changed[k][0] = rng.randrange(5)
        else:
            changed[k][3] = not changed[k][3]
        yield first, changed


def _followed(level: int, first: str, steps: list[list], exhaustive: bool) -> tuple[list, str | None]:
    """The hypotheses after each step (as sets) and the first step's failure, if any."""
    tracker = Tracker(level, read(first), exhaustive=exhaustive)
    kept = [{h.key() for h in tracker.hypotheses}]
    for index, (action, text, reward, done) in enumerate(steps, start=1):
        try:
            tracker.step(action, read(text), reward, done)
        except (Inconsistent, ObservationError) as error:
            return kept, f"step {index}: {error}"
        kept.append({h.key() for h in tracker.hypotheses})
    return kept, None


@pytest.mark.parametrize("level", [2, 3])
def test_the_shared_quick_path_keeps_what_the_general_path_keeps(level):
    """Every hypothesis through the general path (``exhaustive``) and the usual steps shared between
    hypotheses give the same hidden states after every step and the same first failure, in the same
    words, on played and tampered logs."""
    rejected = [0, 0]
    for number, (first, steps) in enumerate(_tampered(level, 100)):
        quick, general = _followed(level, first, steps, False), _followed(level, first, steps, True)
        assert quick == general
        rejected[number % 2] += quick[1] is not None
    assert rejected[0] == 0 and rejected[1] >= 70  # no played log is rejected, most tampered ones are
