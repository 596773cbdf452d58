// Verilator harness of the self-test tops of cohgen --selftest (built with
// --prefix Vselftest_top; make fpga-sim).
//   selftest_sim --expect pass|fail --sig HEX [--baud-div N] [--max-cycles N]
// Clocks the top with rst_ni high (the power-on reset is internal), waits
// for the pass or fail LED, decodes the first UART report from uart_tx_o
// (8N1, BaudDiv clocks per bit, sampled mid-bit) and checks it: the LED and
// the report's verdict must be the expected one and the reported signature
// must equal HEX (the C model's prediction). Exit status 0 when all hold.
#include "Vselftest_top.h"
typedef Vselftest_top Vtop;
static const char *const kFields[2] = {"input transfers", "output transfers"};
#include "verilated.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

int main(int argc, char **argv) {
  const char *expect = "pass";
  unsigned long sig = 0, baud_div = 104, max_cycles = 40000000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--expect")) expect = argv[i + 1];
    else if (!strcmp(argv[i], "--sig")) sig = strtoul(argv[i + 1], nullptr, 16);
    else if (!strcmp(argv[i], "--baud-div")) baud_div = strtoul(argv[i + 1], nullptr, 0);
    else if (!strcmp(argv[i], "--max-cycles")) max_cycles = strtoul(argv[i + 1], nullptr, 0);
    else { fprintf(stderr, "selftest_sim: bad option %s\n", argv[i]); return 2; }
  }
  const bool want_pass = !strcmp(expect, "pass");
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vtop>(ctx.get());
  top->rst_ni = 1;
  top->clk_i = 0;
  top->eval();

  unsigned long cyc = 0, done_at = 0;
  int led = -1;  // 1 pass, 0 fail
  std::string line;
  // UART receiver state: 0 idle, else counting within a frame.
  unsigned long cnt = 0;
  int bit = -1, prev = 1;
  unsigned ch = 0;
  for (; cyc < max_cycles; cyc++) {
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
    if (led < 0 && (top->led_pass_o || top->led_fail_o)) {
      led = top->led_pass_o ? 1 : 0;
      done_at = cyc;
    }
    int tx = top->uart_tx_o;
    if (bit < 0) {
      if (prev == 1 && tx == 0) { bit = 0; cnt = 0; ch = 0; }
    } else if (++cnt == baud_div / 2 + (unsigned long)bit * baud_div) {
      if (bit == 0 && tx != 0) bit = -1;          // glitch, not a start bit
      else if (bit >= 1 && bit <= 8) ch |= (unsigned)tx << (bit - 1);
      else if (bit == 9) {
        if (tx != 1) { fprintf(stderr, "selftest_sim: framing error\n"); return 1; }
        line.push_back((char)ch);
        bit = -1;
        if (ch == '\n') break;
      }
      if (bit >= 0) bit++;
    }
    prev = tx;
  }
  top->final();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  if (led < 0) { printf("selftest_sim: no LED after %lu cycles\n", cyc); return 1; }
  char verdict[8] = "";
  unsigned long rsig = 0, rreq = 0, rinv = 0;
  if (sscanf(line.c_str(), "%4s %lx %lx %lx", verdict, &rsig, &rreq, &rinv) != 4) {
    printf("selftest_sim: unreadable UART report '%s'\n", line.c_str());
    return 1;
  }
  const bool rep_pass = !strcmp(verdict, "PASS");
  printf("selftest_sim: %s LED at cycle %lu, UART \"%s\" (%s %lu, %s %lu) by cycle %lu\n",
         led ? "pass" : "fail", done_at, line.c_str(), kFields[0], rreq, kFields[1], rinv, cyc);
  bool ok = (led == 1) == want_pass && rep_pass == want_pass && rsig == sig;
  printf("selftest_sim: %s (expected %s; reported signature %08lx %s C model %08lx)\n",
         ok ? "OK" : "WRONG", expect, rsig, rsig == sig ? "==" : "!=", sig);
  return ok ? 0 : 1;
}
