"""LangSuitE's Interactive QA task (IQUAD questions) on the default kitchens, re-created."""
