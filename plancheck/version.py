"""The version of plancheck, for the package and for what it writes (episode logs, verdicts)."""

__version__ = "0.1.0"
