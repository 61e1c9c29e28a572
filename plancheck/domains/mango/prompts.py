"""The published MANGO prompts, byte for byte: the walkthrough context, then the RF or DF question.

The release sends one user message, ``f"{context}\\n{question}"``, with no system message. Lists of
names are written as Python writes them (``['north', 'east']``), as the release's f-strings do.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from plancheck.domains.mango.game import Game, walkthrough_prefix
from plancheck.domains.mango.instance import MangoInstance
from plancheck.domains.mango.questions import DFQuestion


def _python_list(names: Sequence[str]) -> str:
    return repr(list(names))


@lru_cache(maxsize=64)
def context(game: Game, cutoff: int) -> str:
    """The shared part of every prompt of a game: walkthrough prefix, actions and locations."""
    return (f"!!! Here is a walkthrough of a text game:\n{walkthrough_prefix(game.walkthrough, cutoff)}\n\n"
            f"The allowed actions are: {_python_list(game.actions)}.\n"
            f"The list of locations are: {_python_list(game.locations)}.")


def rf_question(src: str, dst: str) -> str:
    """The route-finding question.

    >>> print(rf_question("bedroom", "driveway"))  # doctest: +NORMALIZE_WHITESPACE
    !!! Can you find a path from "bedroom" to "driveway", and format the output as a python list of python
    dictionary with keys 'location_before', 'action' and 'location_after'? Start your response with '['.
    """
    return (f'!!! Can you find a path from "{src}" to "{dst}", and format the output as a python list of python '
            "dictionary with keys 'location_before', 'action' and 'location_after'? Start your response with '['.")


def df_question(src: str, actions: Sequence[str]) -> str:
    """The destination-finding question.

    >>> print(df_question("bedroom", ["east", "south"]))  # doctest: +NORMALIZE_WHITESPACE
    !!! Starting from place "bedroom", perform a list of action ['east', 'south'], where are you now? Describe
    the trajectory in a python list of python dictionary with keys 'location_before', 'action' and
    'location_after'. Start your response with '['.
    """
    return (f'!!! Starting from place "{src}", perform a list of action {_python_list(actions)}, where are you now? '
            "Describe the trajectory in a python list of python dictionary with keys 'location_before', 'action' "
            "and 'location_after'. Start your response with '['.")


def question_text(instance: MangoInstance) -> str:
    question = instance.question
    if isinstance(question, DFQuestion):
        return df_question(question.src, question.actions)
    return rf_question(question.src, question.dst)


def prompt_text(instance: MangoInstance) -> str:
    """The whole user message for one question."""
    return f"{context(instance.game, instance.cutoff)}\n{question_text(instance)}"
