# Test data, not part of Retro. Stands in for the listing's commented-out
# <<set seed>> chunk: run before tests/data/mindreader.awk, it seeds rand()
# from `-v seed=N`, so that a run of the original is reproducible.
BEGIN	{ srand(seed) }
