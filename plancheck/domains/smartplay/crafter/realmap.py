"""Certified shortest unlocks on the real map of a seed, replayed in crafter itself.

What "certified shortest" means here, exactly (see docs/smartplay.md, Crafter):

1. *Static optimum (proven for the creature-free model)*: A* with an admissible estimate searched the
   static-material model (:mod:`~plancheck.domains.smartplay.crafter.mapmodel`: the seed's real
   materials, the player's exact rules, no creatures) to the end, so no plan of that model is shorter
   than :attr:`Unlock.length`; the plan is re-checked on the model.
2. *Real lower bound (holds in crafter, whatever the creatures do)*: the same search on the relaxed
   model, which also lets the player turn without moving (what a creature blocking a move does) and
   lets placed tables and furnaces vanish for free (what an arrow does to them). Creatures change
   nothing else a plan could use (they never give items or open tiles), so no real sequence unlocks the
   achievement in fewer than :attr:`Unlock.real_bound` actions. :attr:`Unlock.relaxed_bound`, the
   estimate at the start, is a weaker bound of the same kind.
3. *Real replay*: the plan is played in crafter from the same seed (after SmartPlay's reset, with the
   fixed despawn order) and :attr:`Unlock.real` says at which action the achievement unlocked there.
   When creatures get in the way, the other shortest plans of the static model are searched (depth
   first, every step played in crafter too, a branch cut as soon as crafter leaves the model) for one
   that crafter follows to the end.

So when the replay unlocks at the last action and :attr:`Unlock.real_bound` equals the length, the plan
is a proven shortest one in the real game for that seed (:attr:`Unlock.real_optimal`). When A* cannot
finish within its limits (deep goals: iron, diamond), weighted A* (weight 2) gives a plan, reported with
the bounds A* had proven when it stopped: the gap is said, and nothing more is claimed.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plancheck.domains.smartplay.crafter import engine, prompts
from plancheck.domains.smartplay.crafter.game import CrafterGame
from plancheck.domains.smartplay.crafter.mapmodel import MOVES, MapRules, MapState, StaticMap
from plancheck.domains.smartplay.crafter.mapsearch import Heuristic, MapPlan, map_actions, replay_static, shortest_plan
from plancheck.domains.smartplay.crafter.rules import ITEMS
from plancheck.solvers.result import Status


@dataclass(frozen=True, slots=True)
class RealReplay:
    """A plan played in crafter: where it unlocked the goal, and where crafter first left the model."""

    unlocked_at: int | None
    played: int
    diverged_at: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class Unlock:
    """The certified shortest unlock of one achievement on one seed's map (see the module text)."""

    seed: int
    episode: int
    achievement: str
    status: Status
    actions: tuple[str, ...] | None  # crafter action names
    relaxed_bound: int
    static_bound: int
    real_bound: int
    static_ok: bool
    real: RealReplay | None
    tried: int  # crafter steps spent looking for a plan creatures do not block (0: the first one worked)
    expanded: int
    seconds: float

    @property
    def length(self) -> int | None:
        return None if self.actions is None else len(self.actions)

    @property
    def static_optimal(self) -> bool:
        return self.actions is not None and self.static_ok and len(self.actions) == self.static_bound

    @property
    def real_ok(self) -> bool:
        return self.real is not None and self.real.unlocked_at == self.length

    @property
    def real_optimal(self) -> bool:
        return self.real_ok and self.static_optimal and self.real_bound == self.length

    @property
    def smartplay_actions(self) -> tuple[str, ...] | None:
        """The plan as SmartPlay's action texts."""
        if self.actions is None:
            return None
        return tuple(prompts.ACTIONS[prompts.CRAFTER_ACTIONS.index(a)] for a in self.actions)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "episode": self.episode, "achievement": self.achievement,
                "status": self.status.value, "length": self.length, "plan": list(self.smartplay_actions or []),
                "relaxed_lower_bound": self.relaxed_bound, "static_lower_bound": self.static_bound,
                "real_lower_bound": self.real_bound, "static_optimal": self.static_optimal,
                "static_replay_ok": self.static_ok, "real_optimal": self.real_optimal,
                "real_unlocked_at": None if self.real is None else self.real.unlocked_at,
                "real_diverged_at": None if self.real is None else self.real.diverged_at,
                "real_note": "" if self.real is None else self.real.reason, "alternative_steps_tried": self.tried,
                "expanded": self.expanded, "seconds": round(self.seconds, 3)}


def start_game(seed: int, episode: int = 1) -> CrafterGame:
    """A game right after SmartPlay's reset (the first agent action is next)."""
    game = CrafterGame(seed, episode)
    game.reset()
    return game


def static_model(game: CrafterGame, achievement: str) -> MapRules:
    """The static-material model of a game's current map, player and inventory."""
    player = game.env._player
    counts = tuple(int(player.inventory[item]) for item in ITEMS)
    start = MapState((int(player.pos[0]), int(player.pos[1])), (int(player.facing[0]), int(player.facing[1])),
                     counts)
    return MapRules(StaticMap.from_array(engine.materials(game.env)), start, achievement)


def _player_state(game: CrafterGame) -> tuple:
    player = game.env._player
    return ((int(player.pos[0]), int(player.pos[1])), (int(player.facing[0]), int(player.facing[1])),
            tuple(int(player.inventory[item]) for item in ITEMS))


def _in_the_way(game: CrafterGame, state: MapState, action: str) -> str:
    """What crafter had in the way of ``action`` that the model does not know about."""
    x, y = state.position
    dx, dy = MOVES.get(action, state.facing)
    _, obj = game.env._world[(x + dx, y + dy)]
    if obj is not None:
        return f"a {type(obj).__name__.lower()} stood at ({x + dx}, {y + dy})"
    player = game.env._player
    if player.sleeping:
        return "the player was asleep"
    return "a creature or the player's vitals changed the outcome"


def replay_real(game: CrafterGame, model: MapRules, plan: Sequence[str]) -> RealReplay:
    """Play ``plan`` in (a copy of) ``game``; compare every step with the static model."""
    game = copy.deepcopy(game)
    state = model.initial_state()
    diverged, reason = None, ""
    for index, action in enumerate(plan, start=1):
        before = state
        outcome = model.step(state, action)
        state = outcome.state if outcome.ok else state
        health = game.env._player.health
        step = game.step(prompts.CRAFTER_ACTIONS.index(action))
        if diverged is None:
            if _player_state(game) != (state.position, state.facing, state.counts):
                diverged, reason = index, _in_the_way(game, before, action)
            elif game.env._player.health < health:
                reason = f"the player was hurt at action {index} (health {health} -> {game.env._player.health})"
        if model.achievement in step.info["unlocked"]:
            return RealReplay(index, index, diverged, reason)
        if step.done:
            return RealReplay(None, index, diverged or index, reason or "the episode ended (the player died)")
    return RealReplay(None, len(plan), diverged, reason or "the goal was not unlocked")


def _creatures_near(game: CrafterGame, position: tuple[int, int], reach: int = 10) -> frozenset:
    x, y = position
    return frozenset((type(o).__name__, int(o.pos[0]), int(o.pos[1])) for o in game.env._world.objects
                     if abs(int(o.pos[0]) - x) + abs(int(o.pos[1]) - y) <= reach and o is not game.env._player)


def _follow(game: CrafterGame, model: MapRules, length: int, budget: int) -> tuple[tuple[str, ...] | None, int]:
    """A static plan of exactly ``length`` actions that crafter follows step for step (depth first)."""
    estimate = Heuristic(model)
    actions = map_actions(model.achievement)
    nodes = 0
    seen: set[tuple] = set()  # (state, creatures close by): a second visit would fare the same, or near enough
    stack: list[tuple[MapState, CrafterGame, tuple[str, ...]]] = [(model.initial_state(), game, ())]
    while stack and nodes < budget:
        state, real, plan = stack.pop()
        children = []
        for action in actions:
            outcome = model.step(state, action)
            if not outcome.ok or outcome.state == state or len(plan) + 1 + estimate(outcome.state) > length:
                continue
            nodes += 1
            child = copy.deepcopy(real)
            step = child.step(prompts.CRAFTER_ACTIONS.index(action))
            after = outcome.state
            if _player_state(child) != (after.position, after.facing, after.counts) or step.done:
                continue  # crafter left the model here: a creature was in the way
            if model.goal_reached(after):
                if model.achievement in step.info["unlocked"]:
                    return (*plan, action), nodes
                continue
            key = (after, _creatures_near(child, after.position))
            if key not in seen:
                seen.add(key)
                children.append((after, child, (*plan, action)))
        stack.extend(reversed(children))
    return None, nodes


def certify_unlock(seed: int, achievement: str, episode: int = 1, *, max_expansions: int = 1_000_000,
                   seconds: float | None = None, budget: int = 20_000, longer: int = 2,
                   game: CrafterGame | None = None) -> Unlock:
    """Find the static optimum, bound the real one, and replay in crafter (see the module text).

    When creatures block the first shortest plan, other plans of the static model that crafter
    follows step for step are looked for, of the optimal length and then up to ``longer`` actions
    more; ``budget`` caps the crafter steps spent on each length. ``game`` (the seed's game right
    after the reset) saves building the world again.
    """
    game = game if game is not None else start_game(seed, episode)
    model = static_model(game, achievement)
    relaxed = Heuristic(model)(model.initial_state())
    result: MapPlan = shortest_plan(model, max_expansions=max_expansions, seconds=seconds)
    loose = shortest_plan(MapRules(model.grid, model.start, achievement, relaxed=True),
                          max_expansions=max_expansions, seconds=seconds)
    real_bound = loose.cost if loose.cost is not None else loose.bound
    expanded, spent = result.expanded + loose.expanded, result.seconds + loose.seconds
    if result.actions is None:  # no proof within the limits: a plan by weighted A*, with the bounds proven
        quick = shortest_plan(model, max_expansions=max_expansions, seconds=seconds, weight=2.0)
        expanded, spent = expanded + quick.expanded, spent + quick.seconds
        if quick.actions is None:
            return Unlock(seed, episode, achievement, result.status, None, relaxed, result.bound, real_bound, False,
                          None, 0, expanded, spent)
        result = MapPlan(Status.SOLVED, quick.actions, result.bound, result.expanded, result.seconds, quick.cost)
    plan, tried = result.actions, 0
    real = replay_real(game, model, plan)
    for length in range(len(plan), len(plan) + longer + 1):
        if real.unlocked_at == len(plan):
            break
        other, nodes = _follow(game, model, length, budget)
        tried += nodes
        if other is not None:
            plan, real = other, replay_real(game, model, other)
    static_ok, _ = replay_static(model, plan)
    return Unlock(seed, episode, achievement, Status.SOLVED, plan, relaxed, result.bound, real_bound, static_ok,
                  real, tried, expanded, spent)
