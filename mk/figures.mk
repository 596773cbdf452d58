# Figures of the families' measured behaviour beside the papers' values
# (README "Results", docs/<family>.md).
#   make results          every family's data: scripts/<family>-results.sh
#                         through scripts/results.sh into results/<family>.csv
#                         (the model tools; a family's fragment may add a
#                         bench its data needs; results-speed builds every
#                         bench and runs callgrind, about 2 minutes)
#   make results-<family> one family's
#   make figures          docs/figures/<family>.png (gnuplot, scripts/<family>-figure.gp)
#                         and README's Results section from the committed CSVs
#                         alone (no model run)
#   make figures-check    (a make test step) the same into a temporary
#                         directory, compared with the committed files
.PHONY: results figures figures-check
RESULT_FAMILIES := $(patsubst scripts/%-results.sh,%,$(wildcard scripts/*-results.sh))
TEST_STEPS += figures-check
results: $(addprefix results-,$(RESULT_FAMILIES))
results-%: $(B)/bin/cohmodel
	scripts/results.sh $*
# callgrind counts of every family's lockstep bench
results-speed: verilate | $(BENCH_DEPS_OK)
figures: | $(DEPS_OK)
	python3 scripts/figures.py --write
figures-check: | $(DEPS_OK)
	python3 scripts/figures.py --check
