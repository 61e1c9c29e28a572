"""SmartPlay's games (arXiv 2310.01557), one package per game."""
