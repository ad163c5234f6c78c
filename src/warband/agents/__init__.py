"""The players: random, heuristic, mcts and the human console, over the public protocol only."""
