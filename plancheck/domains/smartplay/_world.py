"""The facade every interactive SmartPlay game shares: its commands and options, the first prompt,
the paper's table, the references, and the conversion of SmartPlay's run logs.

A game's ``world.py`` subclasses :class:`SmartPlayWorld` and sets ``name``, ``title``,
``episodes`` (its :class:`~plancheck.domains.smartplay._game.SmartPlayEpisodes`), ``select``
(selectors -> instances), ``references`` (instance, steps -> [(label, expected raw score)]) and
``table_metrics`` ((column, score or metric key) pairs for the summary).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plancheck.domains.smartplay import _convert, _frame, _report
from plancheck.domains.smartplay._game import SmartPlayEpisodes
from plancheck.episodes.game import CheckedStep
from plancheck.episodes.log import Episode
from plancheck.errors import BadInputError
from plancheck.verifier.verdict import Verdict
from plancheck.world import EPISODIC, Capability, Option, Prompt, Record, Summary, WorldBase

if TYPE_CHECKING:  # annotations only: keeps the drawing code out of a plain check's start-up
    from plancheck.drawing.shapes import Picture

READINGS_HELP = ("how a reply becomes an action: smartplay (SmartPlay's rule: the action written first; none "
                 "found means action 0, reported), strict (exactly one action named; otherwise no action is "
                 "taken and the episode ends) or committed (the answer the reply commits to: a marked answer wins; "
                 "none: the episode ends); every reply's status also compares the action with its committed answer")


class SmartPlayWorld(WorldBase):
    """Commands: instances, prompt, play, check, evaluate, stats, convert (episode logs only)."""

    capabilities = EPISODIC | {Capability.STATS, Capability.CONVERT, Capability.RENDER}
    data_release = "generated (SmartPlay 9dec5f2)"
    actions: tuple[str, ...] = ()  # the game's action texts (Bandits, Rock Paper Scissors) ...
    labels: tuple[str, ...] = ()  # ... and their names in pictures
    episodes: SmartPlayEpisodes
    select: Callable[[Sequence[str]], Iterator[Any]]
    references: Callable[[Any, int], list[tuple[str, float]]]
    table_metrics: tuple[tuple[str, str], ...] = ()

    @property
    def options(self) -> tuple[Option, ...]:
        defaults = self.episodes.defaults
        return (
            Option("reading", READINGS_HELP, ("play",), "smartplay", tuple(self.episodes.readings)),
            Option("history", "observations shown in the history (SmartPlay's HistoryTracker length)", ("play",),
                   defaults["history"], kind=int),
            Option("steps", "steps per episode (SmartPlay's rollout)", ("play",), defaults["steps"], kind=int),
            Option("paper", "add the paper's published rows (Table 4, normalised for Table 2): names separated by "
                   f"commas, or all ({', '.join(_frame.TABLE4)})", ("evaluate",)),
        )

    def instances(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Iterator[Any]:
        return self.select(selectors)

    def prompt(self, instance: Any, **options: Any) -> Prompt:
        """SmartPlay's first prompt of an episode: the first question at step 1 (the second follows
        with the first reply in the chat; ``play`` and ``check`` build every prompt)."""
        game = self.episodes.game(instance, 0, self.episodes.defaults)
        game.reset()
        messages = game.messages()
        return Prompt(instance.id, messages[0]["content"], messages[-1]["content"],
                      tuple((m["role"], m["content"]) for m in messages[1:-1]))

    def summarize(self, results: Iterable[tuple[Record, Verdict]], paper: str | None = None,
                  **options: Any) -> Summary:
        instance = self.episodes.instance(self.episodes.env)
        steps = self.episodes.defaults["steps"]
        title = (f"SmartPlay {instance.id}: mean over episodes, the paper's Table 2 (normalised) and Table 4 (raw) "
                 f"columns; references expected over {steps} steps")
        return _report.table(self.episodes.env, title, results, self.references(instance, steps),
                             self.table_metrics, paper)

    def stats(self, selectors: Sequence[str], data: Path | None, **options: Any) -> Summary:
        header = ("instance", "steps", "history", "episodes", "reference", "raw", "normalised")
        rows = []
        for instance in dict.fromkeys(self.select(selectors or ["all"])):
            recorded = _frame.RECORDED[instance.id]
            steps, history = self.episodes.defaults["steps"], self.episodes.defaults["history"]
            rows.append((instance.id, steps, history, recorded.episodes, "human (paper)", recorded.human,
                         _frame.normalize(instance.id, recorded.human)))
            for label, raw in self.references(instance, steps):
                rows.append(("", "", "", "", f"{label} (expected)", raw, _frame.normalize(instance.id, raw)))
        return Summary(f"{self.title}: settings and reference scores", header, tuple(rows))

    def setting(self, record: Record, verdict: Verdict) -> str:
        return verdict.instance

    def headline(self, **options: Any) -> str:
        return "score"

    def reference_scores(self, setting: str, **options: Any) -> dict[str, float]:
        """The references' expected raw scores (random, Bayes-optimal, oracle, as the game defines them)."""
        return dict(self.references(self.episodes.instance(setting), self.episodes.defaults["steps"]))

    def render(self, instance: Any, answer: Any = None, *, verdict: Verdict | None = None,
               **options: Any) -> Picture:
        """An episode (``answer``, an episode log's :class:`Episode`) drawn: for Bandits and Rock Paper
        Scissors the posterior at every step with the choices marked, and the running reward and regret."""
        if not isinstance(answer, Episode):
            return self.render_start(instance)
        from plancheck.episodes.check import check_episode, replay_episode

        verdict = verdict if verdict is not None else check_episode(self.episodes, answer)
        return self.render_episode(instance, answer, replay_episode(self.episodes, answer), verdict)

    def render_start(self, instance: Any) -> Picture:
        raise BadInputError(f"a {self.name} picture draws an episode: give its log with --answer FILE (plancheck "
                            f"play {self.name} {self.episodes.instance_id(instance)} --policy bayes -o FILE writes "
                            "one)")

    def render_episode(self, instance: Any, episode: Episode, steps: Sequence[CheckedStep],
                       verdict: Verdict) -> Picture:
        from plancheck.domains.smartplay._render import posterior_picture

        header = episode.header
        who = header.model or header.policy
        title = f"{self.episodes.instance_id(instance)}, seed {header.seed}, played by {who}"
        return posterior_picture(title, steps, self.actions, self.labels, verdict)

    def convert(self, path: Path, seed: int | None = None, model: str | None = None,
                **options: Any) -> Iterator[Episode]:
        """Episode logs from SmartPlay's own run tables (see ``_convert``)."""
        if not self.supports(Capability.CONVERT):
            return super().convert(path, seed, model)
        return _convert.convert(path, world=self.name, instance=self.episodes.env, settings=self.episodes.defaults,
                                seed=seed, model=model)
