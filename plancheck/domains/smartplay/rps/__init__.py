"""SmartPlay's Rock Paper Scissors, ``RockPaperScissorBasic``."""
