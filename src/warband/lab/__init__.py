"""The laboratory: seeded simulation on every core or a Ray cluster, the SQLite store, reports, compare and balance."""
