"""Action-masked PPO on hexwar games (``pip install -e ".[learn]"``; docs/learning.md)."""
