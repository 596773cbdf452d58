# Stand-in until the unit registry lands: the objects a REC bench links
# (scripts/unit-bench.sh reads $(B)/tb_rec.objs).
$(B)/tb_rec.objs: $(B)/obj/tb/tb_rec.o $(BENCH_OBJ)
	@echo $^ >$@
