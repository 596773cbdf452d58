/*
 * The HALCONE cache timestamp unit at transaction level, for system models
 * that put the unit's ports in place of its functional core (tb/halcone/halcone_vsys.c):
 * each RD/WR/EV/INV is driven on the request port, the request below is
 * answered on the fill port with the (wts, rts) of the level below, and the
 * clock runs until the answer is taken; random back-pressure on every
 * ready and random fill delays come from a seed. The unit is either the
 * committed Verilated module, run in lockstep with the timing shell (every
 * output compared every cycle), or the timing shell alone (no DUT).
 */
#ifndef HALCONE_CACHE_RTL_H
#define HALCONE_CACHE_RTL_H

#include <stddef.h>
#include <stdint.h>

#include "dut.h"
#include "halcone_cache.h"

typedef struct halcone_cache_rtl halcone_cache_rtl;

/* d: a Verilated halcone-cache DUT (its configuration is the committed
 * one), or NULL for the timing shell alone of cfg (cfg is ignored with a
 * DUT). seed: back-pressure and fill delays. NULL with a reason in err. */
halcone_cache_rtl *halcone_cache_rtl_new(const dut_ops *d, const halcone_cache_cfg *cfg,
                                         uint64_t seed, char *err, size_t len);
void halcone_cache_rtl_free(halcone_cache_rtl *r);
const halcone_cache_cfg *halcone_cache_rtl_cfg(const halcone_cache_rtl *r);
/* The shell's functional state (equal to the RTL's as far as every output
 * of every cycle so far shows). */
const halcone_cache *halcone_cache_rtl_core(const halcone_cache_rtl *r);

/* RD/WR (op) at byte address addr carrying the requester's cts up
 * (req_cts_i; must be 0 without --l1-req-cts), answered from below with
 * (wts, rts) if it goes below; EV; INV. *res as halcone_cache_access,
 * decoded from the ports. 0, or -1 (a mismatch, a port protocol error or
 * no answer: halcone_cache_rtl_error). */
int halcone_cache_rtl_access(halcone_cache_rtl *r, halcone_cache_op op, uint64_t addr,
                             uint32_t up, uint32_t wts, uint32_t rts, halcone_cache_result *res);

/* A broken unit (tests): from cycle `from` on, output port `port` of the DUT
 * reads (value & ~mask) | (val & mask). compare 0 switches the per-cycle
 * comparison with the shell off (the system's log and checker must then
 * catch the fault). 0, or -1 for an unknown port. */
int halcone_cache_rtl_fault(halcone_cache_rtl *r, const char *port, uint64_t mask, uint64_t val,
                            uint64_t from, int compare);

/* The unit's name in mismatch messages ("l2_0"). */
void halcone_cache_rtl_name(halcone_cache_rtl *r, const char *name);

uint64_t halcone_cache_rtl_cycles(const halcone_cache_rtl *r);
const char *halcone_cache_rtl_error(const halcone_cache_rtl *r);

#endif
