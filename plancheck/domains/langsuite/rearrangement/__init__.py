"""LangSuitE's Rearrangement task on the ai2thor-rearrangement 2022 episodes (val and test), re-created."""
