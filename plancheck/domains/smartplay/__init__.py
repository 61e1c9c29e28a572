"""SmartPlay's games (arXiv 2310.01557), one package each; ``_frame`` holds what they share."""
