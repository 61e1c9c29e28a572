"""LangSuitE's textual embodied tasks (Rearrangement, ...) re-created on public AI2-THOR scene data.

The shared 2-D world engine lives in :mod:`plancheck.domains.langsuite.engine`; each task has its
own package beside it (``rearrangement/``).
"""
