"""LangSuitE's Household task (ALFRED's seven task types) on the default floor plans, re-created."""
