"""The reference player of MessengerL2/L3: expectimax over the engine's own rules.

At each step the planner sees the level as it is (every entity's position and movement type: what
the text shows and the manual's sentences tell, made exact) and tries every action: for each, every
combination of the moving entities' possible directions (each equally likely, as the engine draws
them) is played on a copy of the level, and so on to a fixed depth. A step that ends the episode is
worth its reward (SmartPlay's score is the last reward); a state the search stops in is worth a
heuristic: the message held, then closeness to the current target (the message, then the goal),
and a penalty for an enemy (the enemy, L3's decoys, the goal while the message is missing) within
reach of the avatar. Ties go to the earlier action in SmartPlay's order.
"""

from __future__ import annotations

from itertools import product

from plancheck.domains.smartplay.messenger.engine import Level, Sprite

MOVING = ("Chaser", "Fleeing")
THREATS = ("enemy", "decoy_message", "decoy_goal")


def _distance(a: Sprite, b: Sprite) -> int:
    return abs(a.x - b.x) + abs(a.y - b.y)


def heuristic(level: Level) -> float:
    """A value in (-1, 1) for a state where the episode goes on."""
    avatar = level.avatar()
    if avatar is None:
        return -1.0
    has_message = avatar.key == "with_message"
    message = level.live["message"][:1]
    goal = level.live["goal"][:1]
    target = goal if has_message or not message else message
    value = 0.3 if has_message else 0.0
    if target:
        value -= 0.01 * _distance(avatar, target[0])
    if not has_message and message and goal:
        value -= 0.002 * _distance(message[0], goal[0])
    threats = [s for key in THREATS if key in level.live for s in level.live[key]]
    if not has_message:
        threats += goal
    for threat in threats:
        gap = _distance(avatar, threat)
        if gap <= 4:
            value -= 0.25 * (5 - gap) / 5
    return max(-0.99, min(0.99, value))


class Planner:
    """Expectimax to ``depth`` actions; :meth:`act` returns SmartPlay's action index 0-4."""

    def __init__(self, depth: int = 2):
        self.depth = depth

    def act(self, level: Level) -> int:
        saved = level.save()
        values = [self._value(level, saved, action, self.depth) for action in range(5)]
        level.load(saved)
        return max(range(5), key=lambda action: (values[action], -action))

    def _value(self, level: Level, saved: tuple, action: int, depth: int) -> float:
        """The expected value of ``action`` from ``saved`` with ``depth`` actions of lookahead."""
        level.load(saved)
        movers = [s for key in level.keys for s in level.live[key] if s.type.cls in MOVING]
        choices = [level.options(s) for s in movers]
        ids = [s.id for s in movers]
        total, count = 0.0, 0
        for combo in product(*choices):
            level.load(saved)
            picked = dict(zip(ids, combo, strict=True))
            reward = level.tick(action, choose=lambda sprite, options: picked[sprite.id])
            if level.ended:
                value = reward
            elif depth > 1:
                after = level.save()
                value = max(self._value(level, after, nxt, depth - 1) for nxt in range(5))
            else:
                value = heuristic(level)
            total += value
            count += 1
        return total / count
