"""plancheck: formal plans, optimal references and exact verdicts for LLM-planning benchmarks."""

__version__ = "0.1.0"
