# Long work as Slurm job arrays (scripts/jobs.sh, docs/cluster.md): make
# mutate and make regress run their tasks through scripts/jobs.sh when SCHED
# is set (SCHED=local: on this machine; SCHED=slurm: one job array).
#   make slurm-selftest  a one-node Slurm cluster on this machine (munge,
#                        slurmctld, slurmd, their files under $(B)/slurm):
#                        a small job array through scripts/jobs.sh, its
#                        report checked against SCHED=local's, the daemons
#                        stopped (make test; installs Slurm when missing)
.PHONY: slurm-selftest
SLURM_DEPS_OK := $(B)/slurm/.deps-ok
$(SLURM_DEPS_OK): scripts/install-deps.sh
	@mkdir -p $(dir $@)
	@scripts/install-deps.sh --slurm --check >/dev/null || scripts/install-deps.sh --slurm
	@touch $@
slurm-selftest: tools | $(SLURM_DEPS_OK)
	scripts/slurm-selftest.sh $(B)/slurm

TEST_STEPS += slurm-selftest
