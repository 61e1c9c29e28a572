"""The contract corpus: Rearrangement episode logs with the verdict each must get, and the optimum.

Built on one episode by playing the certified optimum and LangSuitE's expert and changing one
thing: a feedback text, the action read from a reply, LangSuitE's score, the seed removed, a step
after the end, replies that break LangSuitE's own prompt.
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.domains.langsuite._episodes import ScriptPolicy
from plancheck.domains.langsuite.rearrangement.world import WORLD
from plancheck.episodes.log import Episode, Step
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample, Optimum

EPISODE = "FloorPlan422_21"


def _changed(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))
OPTIMUM = {"steps": 13}  # 11 actions, the opening answer and stop (certified; see docs/langsuite.md)


def examples() -> list[EpisodeExample]:
    episodes = WORLD.episodes
    instance = episodes.instance(EPISODE)
    settings = episodes.settings({})[0]

    def played(policy, name: str) -> Episode:
        game = episodes.game(instance, 0, settings)
        return play(episodes, instance, 0, settings, policy, policy_name=name, game=game)

    best = played(episodes.policy("optimal", episodes.game(instance, 0, settings), 0), "reference:optimal")
    expert = played(episodes.policy("expert", episodes.game(instance, 0, settings), 0), "reference:expert")
    third = best.steps[2]
    lax = played(ScriptPolicy(["YES", "Act: goto [toiletpaper_0]", "Act: pick_up [toiletpaper_0]",
                               "Thought: done", "Act: stop"]), "replay")
    after = replace(best, steps=best.steps + (Step(len(best.steps) + 1, "Act: move_ahead", "move_ahead", "clear"),))
    return [
        EpisodeExample("the certified optimum", best, True),
        EpisodeExample("LangSuitE's expert (it does not restore the room)", expert, True),
        EpisodeExample("a feedback LangSuitE does not give", _changed(best, 3, observation=third.observation.replace(
            "Moved forward by 1 step", "Moved forward by 2 steps")), False, 3, "the observation is", False),
        EpisodeExample("an action the reply does not name", _changed(best, 3, action="turn_left"), False, 3,
                       "the reply reads as 'move_ahead' under the langsuite reading", False),
        EpisodeExample("a success LangSuitE does not report", _changed(best, 13, score=1.0), False, 13,
                       "the score is", False),
        EpisodeExample("no seed: replayed all the same", replace(best, header=replace(best.header, seed=None)), True),
        EpisodeExample("a reply after stop", after, False, 14, "the log goes on", False),
        EpisodeExample("goto at the low level: LangSuitE runs it (a strict note, not a failure)", lax, True),
    ]


EXAMPLES = tuple(examples())
OPTIMA = (Optimum(EPISODE, OPTIMUM, {"policy": "optimal"}),  # restores the room; LangSuitE's own rule says no
          Optimum("FloorPlan221_13", {"actions": 3.0, "steps": 5.0, "success": 1.0, "success_corrected": 1.0}))
