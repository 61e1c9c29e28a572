"""The contract corpus: IQA episode logs with the verdict each must get, and the optimum.

Built on one question by playing the certified optimum and changing one thing: a feedback text,
the action read from a reply, the verdict, a step after the end; plus replies that break the
prompt (goto at the low level), a wrong answer, and a model that never answers (the task's forced
answer at the 30th timestep is judged).
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.domains.langsuite._episodes import ScriptPolicy
from plancheck.domains.langsuite.iqa.world import KEEP_LOOKING, WORLD
from plancheck.episodes.log import Episode, Step
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample, Optimum

EPISODE = "FloorPlan2-existence-potato"  # its start view names an object (a number to tamper with)
NEGATIVE = "FloorPlan5-existence-egg-removed"
OPTIMUM = {"steps": 3, "correct": 1, "accuracy": 1}  # turn_right shows a potato; then the answer


def _changed(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))


def examples() -> list[EpisodeExample]:
    episodes = WORLD.episodes
    settings = episodes.settings({})[0]

    def played(qid: str, policy, name: str) -> Episode:
        instance = episodes.instance(qid)
        game = episodes.game(instance, 0, settings)
        return play(episodes, instance, 0, settings, policy, policy_name=name, game=game)

    instance = episodes.instance(EPISODE)
    best = played(EPISODE, episodes.policy("optimal", episodes.game(instance, 0, settings), 0), "reference:optimal")
    second = best.steps[1]
    wrong = played(EPISODE, ScriptPolicy(["YES", "Act: answer [False]"], after=KEEP_LOOKING), "replay")
    lax = played(EPISODE, ScriptPolicy(["YES", "Act: goto [potato_0]"], after=KEEP_LOOKING), "replay")
    silent = played(NEGATIVE, ScriptPolicy(["YES"], after=KEEP_LOOKING), "replay")
    after = replace(best, steps=best.steps + (Step(len(best.steps) + 1, "Act: turn_right", "turn_right", "clear"),))
    return [
        EpisodeExample("the certified optimum", best, True),
        EpisodeExample("a feedback LangSuitE does not give", _changed(best, 2, observation=second.observation.replace(
            "Turn right", "Turned right")), False, 2, "the observation is", False),
        EpisodeExample("an action the reply does not name", _changed(best, 2, action="turn_left"), False, 2,
                       "the reply reads as 'turn_right' under the langsuite reading", False),
        EpisodeExample("a verdict LangSuitE does not give", _changed(best, 3, score=0.0), False, 3, "the score is",
                       False),
        EpisodeExample("a reply after the answer", after, False, 4, "the log goes on", False),
        EpisodeExample("a wrong answer (valid, goal not reached)", wrong, True),
        EpisodeExample("goto at the low level: LangSuitE runs it, then the empty feedback ends the episode", lax, True),
        EpisodeExample("never answering: the task answers False at timestep 30, right on a removed object", silent,
                       True),
    ]


EXAMPLES = tuple(examples())
OPTIMA = (Optimum(EPISODE, OPTIMUM, {"policy": "optimal"}),
          Optimum(EPISODE, {"actions": 1.0, "steps": 3.0, "correct": 1.0}, {"seed": 0}))
