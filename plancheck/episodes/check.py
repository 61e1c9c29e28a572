"""Re-verify an episode log step by step and turn it into an ordinary Verdict.

At each step: the prompt (when logged) against the world's, byte for byte; the action read from
the reply under the logged reading against the logged action; the logged observation, reward,
score, end flag and info against the rules. A seeded log is replayed exactly; an unseeded one is
followed by the world's observational checker. The first problem is the verdict's failure, in
plain words; checking goes on after it (the replay keeps the rules' outcomes), so the scores are
the ones the replies earn under the rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from plancheck.episodes.game import (
    AMBIGUOUS,
    CLEAR,
    NONE,
    CheckedStep,
    Episodes,
    Follower,
    Game,
    Read,
    Reading,
    Transition,
)
from plancheck.episodes.log import Episode, Step
from plancheck.errors import BadInputError, Location
from plancheck.translators.answer import Reading as VerdictReading
from plancheck.translators.answer import ReadStatus
from plancheck.verifier.verdict import Failure, LazySteps, StepView, Verdict


def check_episode(episodes: Episodes, episode: Episode) -> Verdict:
    """The verdict on one logged episode (BadInputError for a log of another world or an unknown instance)."""
    instance, settings, notes, reading, follower, run = _replay(episodes, episode)
    outcome = episodes.outcome(instance, settings, run.checked)
    first = run.problems[0] if run.problems else None
    checked = tuple(run.checked)
    return Verdict(
        world=episodes.world,
        instance=episodes.instance_id(instance),
        actions=tuple(c.action for c in checked if c.action is not None),
        form=f"episode log ({reading.name} reading, checked by "
             f"{'replay of the seed' if follower is None else 'observation'})",
        notes=tuple(notes) + _grouped(checked) + outcome.notes + run.notes(),
        steps=LazySteps(lambda: tuple(_view(episodes, c) for c in checked)),
        valid=first is None,
        failure=None if first is None else Failure(first[0], first[1], first[2]),
        has_goal=episodes.has_goal,
        goal_reached=outcome.goal_reached,
        goal_step=outcome.goal_step,
        scores=dict(outcome.scores),
        metrics={"seed": episode.header.seed, "steps": len(checked), **_reads(checked),
                 "inconsistent_steps": run.inconsistent, **outcome.metrics},
        optimal=outcome.optimal,
        consistent=run.inconsistent == 0,
        read=_read_status(checked),
    )


def replay_episode(episodes: Episodes, episode: Episode) -> tuple[CheckedStep, ...]:
    """The episode's steps as :func:`check_episode` re-verifies them (the transitions the rules give, or the
    logged ones an observational checker adopted): what pictures of an episode draw."""
    return tuple(_replay(episodes, episode)[-1].checked)


def _replay(episodes: Episodes, episode: Episode) -> tuple[Any, dict[str, Any], tuple[str, ...], Reading,
                                                           Follower | None, _Run]:
    header = episode.header
    where = Location(episode.source or None, header.line or None)
    if header.world != episodes.world:
        raise BadInputError(f"this is a log of world {header.world!r}, not {episodes.world!r}", where)
    try:
        instance = episodes.instance(header.instance)
        settings, notes = episodes.settings(header.settings)
    except BadInputError as error:
        raise BadInputError(error.message, where) from None
    reading = episodes.readings[settings["reading"]]
    if header.seed is not None:
        game: Game = episodes.game(instance, header.seed, settings)
        follower = None
    else:
        follower = episodes.follower(instance, settings)
        if follower is None:
            raise BadInputError(f"the log has no seed, and a {episodes.world} log can only be checked by replaying "
                                "its seed", where)
        game = follower
    run = _Run(game, follower, reading)
    begin = getattr(follower, "begin", None)  # optional: a follower whose start is drawn reads it from the log
    if begin is not None and (problem := begin(episode)) is not None:
        run._problem(0, "(start)", problem)
    run.start(header.observation)
    for logged in episode.steps:
        if not run.step(logged):
            break
    run.finish(len(episode.steps))
    return instance, settings, tuple(notes), reading, follower, run


class _Run:
    """The state of one check: the game, the checked steps, the problems found."""

    def __init__(self, game: Game, follower: Follower | None, reading: Reading):
        self.game, self.follower, self.reading = game, follower, reading
        self.checked: list[CheckedStep] = []
        self.problems: list[tuple[int, str, str]] = []  # (step, action, reason)
        self.inconsistent = 0
        self.ended: str | None = None  # why the episode ended
        self.unchecked_info: set[str] = set()

    def start(self, observation: str | None) -> None:
        first = self.game.reset()
        if observation is not None and observation != first:
            self._problem(0, "(start)", f"the first observation is {_quote(observation)} but the game starts "
                                        f"with {_quote(first)}")

    def _problem(self, step: int, action: str, reason: str, inconsistent: bool = True) -> None:
        self.inconsistent += inconsistent
        self.problems.append((step, action, reason))

    def step(self, logged: Step) -> bool:
        """Check one logged step; False when the log goes on after the episode ended."""
        k, game = logged.step, self.game
        if self.ended is not None or (game.horizon is not None and k > game.horizon):
            why = self.ended or f"the benchmark runs {game.horizon} steps"
            self._problem(k, logged.action or "(none)", f"{why}, but the log goes on")
            return False
        actions = game.actions()
        found = [self._prompt(logged)]
        read, action = self._read(logged, actions)
        if read is not None:
            found.append(self._reading(logged, read))
        transition = None
        fatal = True  # the step's problem, if any, makes the log inconsistent
        if action is None:
            if read is None:
                found.append(f"the logged action {_quote(logged.action)} is not one of {list(actions)}")
            elif logged.observation is not None or logged.reward is not None:
                found.append("no action was taken (the reply could not be read), but the log shows an outcome")
            elif not any(found):
                why = "; ".join(read.notes) or f"the reply reads {read.status}"
                found.append(f"the reply names no action the {self.reading.name} reading accepts ({why}); the "
                             "episode ends here")
                fatal = False
            self.ended = f"the episode ended at step {k} (no action was taken)"
        else:
            if self.follower is not None:  # it adopts the logged outcome; what it infers (info) is compared
                transition, outcome = self.follower.follow(action, logged)
            else:
                transition, outcome = game.step(action, logged.reply), None
            found.append(outcome or self._compare(logged, transition))
            if transition.done:
                self.ended = f"the episode ended at step {k} (done)"
        problem = next((reason for reason in found if reason is not None), None)
        if problem is not None:
            self._problem(k, action or "(none)", problem, fatal)
        self.checked.append(CheckedStep(k, logged, read, action, transition, problem))
        return True

    def _prompt(self, logged: Step) -> str | None:
        if logged.prompt is None:
            return None
        # one question a step: nothing came earlier (the prompt's assistant messages are the conversation so far)
        earlier = logged.earlier if logged.earlier or self.game.turns == 1 else \
            tuple(m["content"] for m in logged.prompt if m["role"] == "assistant")
        if len(earlier) != self.game.turns - 1:
            return (f"the prompt follows {len(earlier)} earlier reply(ies) of this step, but the game asks "
                    f"{self.game.turns} question(s) per step")
        return _prompt_difference(logged.prompt, self.game.messages(earlier))

    def _read(self, logged: Step, actions: Sequence[str]) -> tuple[Read | None, str | None]:
        if logged.reply is None:
            return None, logged.action if logged.action in actions else None
        read = self.reading.read(logged.reply, actions)
        return read, read.action

    def _reading(self, logged: Step, read: Read) -> str | None:
        if logged.action != read.action:
            how = f" ({'; '.join(read.notes)})" if read.notes else ""
            taken = "no action" if read.action is None else _quote(read.action)
            return (f"the reply reads as {taken} under the {self.reading.name} reading{how}, but the log says "
                    f"{_quote(logged.action) if logged.action is not None else 'no action'}")
        if logged.read is not None and logged.read not in (read.status, read.rule_status):
            return (f"the reply reads {read.status} under the {self.reading.name} reading, but the log says "
                    f"{logged.read}")
        return None

    def _compare(self, logged: Step, transition: Transition) -> str | None:
        if logged.observation is not None and logged.observation != transition.observation:
            return f"the observation is {_quote(logged.observation)} but the rules give " \
                   f"{_quote(transition.observation)}{_because(transition)}"
        if logged.reward is not None and not _same(logged.reward, transition.reward):
            return f"the reward is {logged.reward!r} but the rules give {transition.reward!r}{_because(transition)}"
        if logged.score is not None and not _same(logged.score, transition.score):
            return f"the score is {logged.score!r} but the rules give {transition.score!r}"
        if logged.done is not None and logged.done != transition.done:
            return f"the log says done={str(logged.done).lower()} but the rules say {str(transition.done).lower()}"
        for key, value in (logged.info or {}).items():
            if key not in transition.info:
                self.unchecked_info.add(key)
            elif not _same(value, transition.info[key]):
                return f"info[{key!r}] is {value!r} but the rules give {transition.info[key]!r}"
        return None

    def finish(self, logged_steps: int) -> None:
        if self.ended is not None or logged_steps > len(self.checked):
            return
        horizon = self.game.horizon
        if horizon is not None and logged_steps < horizon:
            self._problem(logged_steps + 1, "(none)", f"the log ends after {logged_steps} step(s), but the episode "
                                                      f"runs {horizon} steps (it was not done)")
        elif horizon is None:
            self._problem(logged_steps + 1, "(none)", f"the log ends after {logged_steps} step(s), but the episode "
                                                      "was not done")

    def notes(self) -> tuple[str, ...]:
        if not self.unchecked_info:
            return ()
        return (f"info key(s) {', '.join(sorted(self.unchecked_info))} not checked (the world does not report them)",)


def _because(transition: Transition) -> str:
    explanation = transition.explanation()
    return f" ({explanation})" if explanation else ""


def _same(logged: Any, expected: Any) -> bool:
    """Equal as JSON values; numbers within a relative 1e-9 (a float that went through a log)."""
    if type(logged) is type(expected) and logged == expected:
        return True
    if isinstance(logged, bool) or isinstance(expected, bool):
        return logged is expected
    if isinstance(logged, (int, float)) and isinstance(expected, (int, float)):
        return logged == expected or math.isclose(logged, expected, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(logged, list) and isinstance(expected, (list, tuple)):
        return len(logged) == len(expected) and all(_same(a, b) for a, b in zip(logged, expected))
    if isinstance(logged, dict) and isinstance(expected, Mapping):
        return logged.keys() == expected.keys() and all(_same(logged[k], expected[k]) for k in logged)
    return logged == expected


def _prompt_difference(logged: Sequence[Mapping[str, str]], expected: Sequence[Mapping[str, str]]) -> str | None:
    """Where the logged prompt first differs from the expected one, in words (None when equal)."""
    if list(logged) == expected:
        return None
    for index, (have, want) in enumerate(zip(logged, expected), start=1):
        if have["role"] != want["role"]:
            return f"prompt message {index} is a {have['role']} message where the benchmark sends a {want['role']} one"
        if have["content"] != want["content"]:
            at = next((i for i, (a, b) in enumerate(zip(have["content"], want["content"])) if a != b),
                      min(len(have["content"]), len(want["content"])))
            return (f"prompt message {index} ({want['role']}) differs from the benchmark's at character {at + 1}: "
                    f"{_quote(have['content'][at:at + 40])} where the benchmark has "
                    f"{_quote(want['content'][at:at + 40])}")
    if len(logged) != len(expected):
        return f"the prompt has {len(logged)} messages; the benchmark sends {len(expected)}"
    return None


def _quote(text: str | None) -> str:
    if text is None:
        return "nothing"
    shown = text if len(text) <= 120 else text[:117] + "..."
    return repr(shown)


def _reads(checked: Sequence[CheckedStep]) -> dict[str, int]:
    counts = {"read_clear": 0, "read_ambiguous": 0, "read_none": 0}
    for step in checked:
        if step.read is not None:
            counts[f"read_{step.read.status}"] += 1
    return counts


def _read_status(checked: Sequence[CheckedStep]) -> VerdictReading:
    """The log's read status, summed up from its replies' readings (see :func:`replies_reading`)."""
    return replies_reading([(step.index, step.read.status) for step in checked if step.read is not None],
                           [step.index for step in checked if step.read is not None and step.read.guessed])


def replies_reading(statuses: Sequence[tuple[int, str]], guessed: Sequence[int] = ()) -> VerdictReading:
    """The read status of a conversation from its replies' (step, status) readings: ambiguous when a reply was
    read ambiguously or the benchmark took an action the reply does not commit to (``guessed``: the steps
    where it did, e.g. SmartPlay's fallback to action 0); none when no reply names an action; else clear
    (a reply that names no action and took none is said with its step: the rest is still read).

    >>> replies_reading([(1, "clear"), (2, "none"), (3, "ambiguous")]).why
    '1 of 3 replies read clearly; ambiguous at step(s) 3; no action at step(s) 2'
    >>> replies_reading([(1, "clear"), (2, "none")], guessed=[2]).status.value
    'ambiguous'
    """
    ambiguous = [str(step) for step, status in statuses if status == AMBIGUOUS]
    unread = [str(step) for step, status in statuses if status == NONE]
    why = f"{sum(1 for _, status in statuses if status == CLEAR)} of {len(statuses)} replies read clearly"
    if ambiguous:
        why += f"; ambiguous at step(s) {', '.join(ambiguous)}"
    if unread:
        why += f"; no action at step(s) {', '.join(unread)}"
    if guessed:
        why += f"; the benchmark's rule took an action the reply does not commit to at step(s) " \
               f"{', '.join(map(str, guessed))}"
    if ambiguous or guessed:
        return VerdictReading(ReadStatus.AMBIGUOUS, why)
    if statuses and len(unread) == len(statuses):
        return VerdictReading(ReadStatus.NONE, why)
    return VerdictReading(ReadStatus.CLEAR, why)


def _grouped(checked: Sequence[CheckedStep]) -> tuple[str, ...]:
    """The reading notes, each said once with the steps it applies to."""
    steps: dict[str, list[int]] = {}
    for step in checked:
        for note in step.read.notes if step.read is not None else ():
            steps.setdefault(note, []).append(step.index)
        if step.read is None and step.action is not None:
            steps.setdefault("no reply logged; the logged action was taken", []).append(step.index)
    return tuple(f"step{'s' if len(ks) > 1 else ''} {', '.join(map(str, ks))}: {note}" for note, ks in steps.items())


def _view(episodes: Episodes, step: CheckedStep) -> StepView:
    clear = step.read is None or step.read.status == CLEAR
    reason = step.problem or ("; ".join(step.read.notes) if step.read is not None and step.read.notes else None)
    ok = step.problem is None and clear and step.action is not None
    return StepView(step.index, step.action or "(no action)", ok, reason, episodes.describe(step))
