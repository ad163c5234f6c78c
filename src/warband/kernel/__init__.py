"""The game-agnostic engine: state, steps, dice, table geometry, set-up, turns and the protocol (names no game)."""
