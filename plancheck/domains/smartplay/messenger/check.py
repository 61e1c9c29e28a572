"""Checking a Messenger log without its seed, from what the text shows.

The start is read from the first observation (the header's, or the first prompt's ``current step
observation``) and the manual from the first prompt, when logged: it must be SmartPlay's layout
with one sentence from each list the level draws from (L1: the entity-role's ``immovable`` and
``unknown`` sentences; L2: the variant's movement type or ``unknown``; L3: five typed sentences
and the decoy's, for some shipped variant).

- L1 is deterministic once the start is known: the first observation gives the three cells (each
  two steps away) and the message flag, so every later text, reward and end is replayed exactly.
- L2/L3 draw the entity moves from an unseeded generator: :mod:`.belief` keeps every hidden state
  the texts allow and names the first text, reward or end that none explains.

Both compare the score with the reward (SmartPlay's ``info["score"]`` is the step's reward).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations
from typing import Any

from plancheck.domains.smartplay._game import SmartPlayGame
from plancheck.domains.smartplay.messenger import data, prompts
from plancheck.domains.smartplay.messenger.belief import Inconsistent, Tracker, game_of
from plancheck.domains.smartplay.messenger.game import completed
from plancheck.domains.smartplay.messenger.instance import L1_AVATAR, Episode, Layout
from plancheck.domains.smartplay.messenger.observe import ObservationError, View, read
from plancheck.domains.smartplay.messenger.run import Runner
from plancheck.domains.smartplay.messenger.tables import variants
from plancheck.episodes.game import Transition
from plancheck.episodes.log import Episode as Log
from plancheck.episodes.log import Step

_OBSERVATION = "current step observation: "


def first_observation(log: Log) -> str | None:
    """The reset observation of a log: the header's, else the first step's prompt's."""
    if log.header.observation is not None:
        return log.header.observation
    prompt = log.steps[0].prompt if log.steps else None
    for message in prompt or ():
        if message["role"] == "system" and message["content"].startswith(_OBSERVATION):
            return message["content"][len(_OBSERVATION):]
    return None


def logged_manual(log: Log) -> str | None:
    """The manual of the first logged prompt (SmartPlay's second system message), if any."""
    prompt = log.steps[0].prompt if log.steps else None
    if not prompt or len(prompt) < 3 or prompt[1]["role"] != "system":
        return None
    return prompt[1]["content"]


def _slots(level: int, game: data.Game) -> list[list[tuple[str, str, tuple[str, ...]]]]:
    """Per possible variant, the sentences the manual holds: (entity, role, the lists it may come from)."""
    texts = []
    if level == 1:
        return [[(game.by_role(role), role, ("immovable", "unknown")) for role in data.ROLES]]
    for variant in variants(level):
        if level == 2:
            texts.append([(game.by_role(role), role, (variant[role], "unknown")) for role in data.ROLES])
        else:
            decoy = tuple(kind for kind in data.MOVEMENTS if kind != variant["enemy"])
            texts.append([(game.enemy, "enemy", (variant["enemy"],)), (game.message, "message", (variant["message"],)),
                          (game.goal, "goal", (variant["goal"],)),
                          (game.message, "enemy", (variant["decoy_message"],)),
                          (game.goal, "enemy", (variant["decoy_goal"],)),
                          (game.enemy, "message|goal", decoy)])
    return texts


def _fits(sentence: str, entity: str, role: str, kinds: tuple[str, ...]) -> bool:
    descriptions = data.descriptions()[entity]
    return any(sentence in descriptions[r][kind] for r in role.split("|") for kind in kinds)


def manual_problem(level: int, game: data.Game, manual: str) -> str | None:
    """Why ``manual`` is not a manual SmartPlay draws for ``game`` at ``level`` (None if it is one)."""
    head, tail = prompts.CONTEXT + "\n\n", "\n\n" + prompts.ADVICE + "\n\n" + prompts.action_menu()
    if not manual.startswith(head) or not manual.endswith(tail):
        return "the manual is not SmartPlay's (its context, advice or action list differs)"
    sentences = manual[len(head):len(manual) - len(tail)].split("\n")
    for slots in _slots(level, game):
        if len(sentences) == len(slots) and any(
                all(_fits(s, *slot) for s, slot in zip(order, slots, strict=True))
                for order in permutations(sentences)):
            return None
    return (f"the manual's sentences are not {'three' if level < 3 else 'six'} sentences SmartPlay draws for "
            f"{game.enemy} (enemy), {game.message} (message) and {game.goal} (goal) in MessengerL{level}")


def l1_layout(view: View) -> Layout:
    """The L1 start a first observation shows (raises Inconsistent when it shows none)."""
    game = game_of(view.names())
    cells = {}
    for seen in view.seen:
        offsets = {"north": (-2, 0), "south": (2, 0), "west": (0, -2), "east": (0, 2)}
        if seen.distance != 2 or seen.direction not in offsets:
            raise Inconsistent(f"at the start of L1 every entity is 2 steps to the north, south, west or east, not "
                               f"{seen}")
        offset = offsets[seen.direction]
        cells[seen.name] = (L1_AVATAR[0] + offset[0], L1_AVATAR[1] + offset[1])
    if len(set(cells.values())) != 3:
        raise Inconsistent("two entities are shown on the same cell at the start")
    return Layout(cells[game.enemy], cells[game.message], cells[game.goal], bool(view.has_message))


class MessengerFollower(SmartPlayGame):
    """Follows an unseeded Messenger log (see the module docstring)."""

    def __init__(self, level: int, settings: Mapping[str, Any]):
        super().__init__("", prompts.ACTIONS, settings["steps"], settings["history"])
        self.level = level
        self.start: str | None = None
        self.tracker: Tracker | None = None
        self.runner: Runner | None = None
        self.broken = False  # the start could not be read: later steps are adopted unchecked

    def begin(self, log: Log) -> str | None:
        """Read the start (and the manual, when a prompt is logged) from the log."""
        self.start = first_observation(log)
        if self.start is None:
            self.broken = True
            return "the first observation is not logged (neither in the header nor in the first prompt)"
        try:
            view = read(self.start)
            if view.error or view.action is not None:
                raise Inconsistent("the first observation must be the start's, without an action line")
            game = game_of(view.names())
            if self.level == 1:
                layout = l1_layout(view)
                self.runner = Runner(Episode(1, None, game, (), layout=layout))
                self.runner.reset()
            else:
                self.tracker = Tracker(self.level, view)
        except (ObservationError, Inconsistent) as error:
            self.broken = True
            return f"the first observation: {error}"
        manual = logged_manual(log)
        if manual is not None:
            self.manual = manual
            return manual_problem(self.level, game, manual)
        return None

    def _start(self) -> str:
        return self.start or ""

    def follow(self, action: str, logged: Step) -> tuple[Transition, str | None]:
        index = self.index(action)
        problem = None
        if logged.score is not None and logged.reward is not None and logged.score != logged.reward:
            problem = f"the score is {logged.score!r}, but SmartPlay's score is the step's reward ({logged.reward!r})"
        if self.runner is not None and not self.broken:
            step = self.runner.step(index)
            transition = Transition(step.observation, step.reward, step.done, step.reward,
                                    {"completed": completed(step.reward, step.done)}, self.runner.describe_state)
            self.observe(step.observation)
            return transition, problem
        transition = Transition(logged.observation, logged.reward, bool(logged.done), logged.reward,
                                {"completed": completed(logged.reward, bool(logged.done))})
        self.observe(logged.observation or "")
        if self.broken or self.tracker is None:
            return transition, problem
        if logged.observation is None or logged.reward is None or logged.done is None:
            self.broken = True  # a converted run lacks the last step's outcome: nothing more to check
            if logged.step < self.horizon:  # SmartPlay's harness stopped early: this step ended the episode
                transition = Transition(None, None, True, None, {})
                if not self.tracker.can_end(index):
                    problem = problem or (f"the log stops before the {self.horizon}-step limit, so this step ended "
                                          f"the episode, but {action} cannot end it here")
            return transition, problem
        try:
            view = read(logged.observation)
            if view.action is not None and view.action != action:
                raise Inconsistent(f"the observation says 'You took action {view.action}.', but {action} was taken")
            self.tracker.step(index, view, logged.reward, logged.done)
        except (ObservationError, Inconsistent) as error:
            self.broken = True
            problem = problem or str(error)
        return transition, problem
