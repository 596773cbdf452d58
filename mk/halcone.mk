FAMILIES += halcone
# halcone-tsu (cmodel/halcone_tsu*.c, gen/halcone_tsu_gen.c): committed
# modules (RTL under rtl/halcone/) and sweep list.
halcone_MODS += halcone_tsu_default halcone_tsu_paper halcone_tsu_fpga
halcone_SWEEP += tb/halcone-tsu_sweep.txt
