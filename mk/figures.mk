# Figures of the families' measured behaviour beside the papers' values
# (README "Results", docs/<family>.md).
#   make results          every family's data: scripts/<family>-results.sh
#                         through scripts/results.sh into results/<family>.csv
#                         (the model tools only; about a minute of CPU)
#   make results-<family> one family's
.PHONY: results
RESULT_FAMILIES := $(patsubst scripts/%-results.sh,%,$(wildcard scripts/*-results.sh))
results: $(addprefix results-,$(RESULT_FAMILIES))
results-%: $(B)/bin/cohmodel
	scripts/results.sh $*
