"""SmartPlay's two-armed bandit, ``BanditTwoArmedHighLowFixed``."""
