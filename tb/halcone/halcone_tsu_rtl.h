/*
 * The Verilated HALCONE TSU at transaction level, for system models that
 * substitute the RTL for the functional core (halcone_tsu_request): each
 * request is driven on the ports, the clock runs until its response is
 * taken, and the response is decoded into the core's halcone_tsu_result.
 * The timing shell runs in lockstep and every output is compared every
 * cycle, so a system run on the RTL is also a lockstep run.
 */
#ifndef HALCONE_TSU_RTL_H
#define HALCONE_TSU_RTL_H

#include <stddef.h>
#include <stdint.h>

#include "dut.h"
#include "halcone_tsu.h"

typedef struct halcone_tsu_rtl halcone_tsu_rtl;

/* Opens a Verilated halcone-tsu DUT (one entry of a family table, e.g. from
 * ls_dut_find(halcone_duts, cohkit_unit_find("halcone-tsu"), "default")), resets it
 * and runs its clearing sweep. NULL with a one-line reason in err. */
halcone_tsu_rtl *halcone_tsu_rtl_new(const dut_ops *d, char *err, size_t len);
/* The timing shell alone of c, driven at its ports as the DUT would be. */
halcone_tsu_rtl *halcone_tsu_rtl_new_shell(const halcone_tsu_cfg *c, char *err, size_t len);
void halcone_tsu_rtl_free(halcone_tsu_rtl *r);
/* The configuration the DUT was generated with. */
const halcone_tsu_cfg *halcone_tsu_rtl_cfg(const halcone_tsu_rtl *r);

/* One request (arguments as halcone_tsu_request; addr a byte address).
 * Returns 0 with *res decoded from the response ports (GRANT results carry
 * no hit/memts: the ports do not), 1 for a NOP (no response), -1 on a
 * mismatch between RTL and timing shell or a response that never came
 * (reason in halcone_tsu_rtl_error). */
int halcone_tsu_rtl_request(halcone_tsu_rtl *r, halcone_tsu_op op, uint64_t addr, uint32_t cts,
                            uint32_t lease, uint32_t rts, halcone_tsu_result *res);
/* Another TSU's epoch reset (epoch_rst_i for one cycle, then the sweep).
 * 0, or -1 as above. */
int halcone_tsu_rtl_epoch_reset(halcone_tsu_rtl *r);
/* Programs the lease registers through the cfg port (0 leaves one as is). */
int halcone_tsu_rtl_set_leases(halcone_tsu_rtl *r, uint32_t rd_lease, uint32_t wr_lease);
/* Cycles clocked since reset, and the reason of the last failure. */
uint64_t halcone_tsu_rtl_cycles(const halcone_tsu_rtl *r);
const char *halcone_tsu_rtl_error(const halcone_tsu_rtl *r);

#endif
