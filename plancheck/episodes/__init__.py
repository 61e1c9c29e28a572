"""Interactive worlds: episode logs (``log``), what a world provides (``game``), the generic players
(``policies``), ``play``, step-by-step ``check`` and batch evaluation (``batch``). World-agnostic:
nothing here imports a world. See docs/episodes.md."""
