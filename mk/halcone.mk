FAMILIES += halcone
# halcone-cache: the cache timestamp unit (cmodel/halcone_cache*.c,
# gen/halcone_cache_gen.c); committed default (safe), paper and fpga.
halcone_MODS += halcone_cache_default halcone_cache_paper halcone_cache_fpga
halcone_SWEEP += tb/halcone-cache_sweep.txt
