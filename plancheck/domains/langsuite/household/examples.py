"""The contract corpus: Household episode logs with the verdict each must get, and the optimum.

Built on one task by playing the certified optimum and changing one thing: a feedback text, the
action read from a reply, the score, a step after the end, the seed removed; plus replies
LangSuitE runs although they break its prompt (two actions in one reply: it takes the first) and a
run its code would crash in (``heat`` at the high level).
"""

from __future__ import annotations

from dataclasses import replace

from plancheck.domains.langsuite._episodes import ScriptPolicy
from plancheck.domains.langsuite.household.world import WORLD
from plancheck.episodes.log import Episode, Step
from plancheck.episodes.play import play
from plancheck.world import EpisodeExample, Optimum

EPISODE = "FloorPlan10-pick_and_place_simple"
OPTIMUM = {"steps": 7, "success": 1, "pw_success": 1}  # open the fridge, take the egg, put it in the microwave


def _changed(episode: Episode, k: int, **changes) -> Episode:
    steps = list(episode.steps)
    steps[k - 1] = replace(steps[k - 1], **changes)
    return replace(episode, steps=tuple(steps))


def examples() -> list[EpisodeExample]:
    episodes = WORLD.episodes

    def played(policy, name: str, level: str = "low") -> Episode:
        settings = episodes.settings({"level": level})[0]
        instance = episodes.instance(EPISODE)
        game = episodes.game(instance, 0, settings)
        return play(episodes, instance, 0, settings, policy, policy_name=name, game=game)

    instance = episodes.instance(EPISODE)
    settings = episodes.settings({})[0]
    best = played(episodes.policy("optimal", episodes.game(instance, 0, settings), 0), "reference:optimal")
    second = best.steps[1]
    two = played(ScriptPolicy(["YES", "Act: move_ahead then turn_left", "Act: stop"]), "replay")
    crash = played(ScriptPolicy(["YES", "Act: move_ahead", "Act: turn_left", "Act: open [fridge_0]",
                                 "Act: pick_up [egg_0]", "Act: heat [egg_0, microwave_0]"]), "replay", "high")
    after = replace(best, steps=best.steps + (Step(len(best.steps) + 1, "Act: move_ahead", "move_ahead", "clear"),))
    return [
        EpisodeExample("the certified optimum", best, True),
        EpisodeExample("a feedback LangSuitE does not give", _changed(best, 2, observation=second.observation.replace(
            "Moved forward by 1 step", "Moved forward by 2 steps")), False, 2, "the observation is", False),
        EpisodeExample("an action the reply does not name", _changed(best, 2, action="turn_left"), False, 2,
                       "the reply reads as 'move_ahead' under the langsuite reading", False),
        EpisodeExample("a success LangSuitE does not report", _changed(best, 5, score=1.0), False, 5, "the score is",
                       False),
        EpisodeExample("no seed: replayed all the same", replace(best, header=replace(best.header, seed=None)), True),
        EpisodeExample("a reply after stop", after, False, 8, "the log goes on", False),
        EpisodeExample("two actions in one reply: LangSuitE takes the first (a strict note)", two, True),
        EpisodeExample("heat at the high level: LangSuitE's code raises, the run ends without a result", crash, True),
    ]


EXAMPLES = tuple(examples())
OPTIMA = (Optimum(EPISODE, OPTIMUM, {"policy": "optimal"}),
          Optimum(EPISODE, {"actions": 5.0, "steps": 7.0, "success": 1.0}))
