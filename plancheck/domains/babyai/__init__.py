"""The BabyAI world: minigrid levels (LLM-BabyBench, LangSuitE) as formal planning problems."""
