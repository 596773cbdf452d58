// Self-test top of the REC directory on iCE40 (rec_fpga: 512 entries, 4 ways,
// 1 kB range, 4 GPUs; entry array in block RAM). Hand-written.
// The directory module is REC_DIR (default rec_fpga); make fpga also builds
// the top around the baseline and HMG directories (fpga/fpga.mk), which
// share its ports: 4 GPUs, 64 B lines, 48-bit addresses.
//
// An on-chip xorshift32 generator (a linear feedback shift register in
// matrix form: three shift-XORs per cycle, 32 fresh bits each cycle) drives
// requests with valid/ready and back-pressure on inv_ready_i for RunCycles
// cycles after reset. A CRC-32 MISR folds every accepted INV handshake
// (address and mask); counters count accepted requests and INVs. After the
// run the three values are compared with the ones fpga/selftest_sig.c
// predicts from the C model's timing shell (rec_eval/rec_step) for the same
// seed: pass or fail LED, and "PASS ssssssss rrrrrr iiiiii\r\n" (or FAIL) on
// the UART every GapCycles cycles, 8N1 at Baud from ClkHz.
//
// Stimulus per cycle, from the generator state r (see selftest_sig.c):
//   inv_ready_i = r[1:0] != 0 (75 %); new request when idle if r[3:2] != 0;
//   op r[6:4]: 0-3 RR, 4-5 RW, 6 LW, 7 NOP; src r[8:7]; slot r[12:9];
//   set r[15:13] (index {set, 4'b1001}); tag r[18:16] (8 tags per set, 4 ways:
//   evictions); r[22:19] == 0: a wild tag from r[31:23]. A request is held
//   until accepted. (Field positions are those of rec_fpga's 1 kB ranges; the
//   same line address drives the other variants, whose index bits differ.)
`default_nettype none

`ifndef REC_DIR
`define REC_DIR rec_fpga
`endif

module rec_selftest_top #(
  parameter [31:0] Seed = 32'h1234_5678,     // generator seed, non-zero
  parameter [23:0] RunCycles = 24'd1048576,  // stimulus cycles after reset
  parameter [1:0]  Home = 2'd1,              // home GPU strap
  parameter [31:0] ExpSig = 32'h0,           // predicted by selftest_sig.c
  parameter [23:0] ExpReqs = 24'd0,
  parameter [23:0] ExpInvs = 24'd0,
  parameter [15:0] BaudDiv = 16'd104,        // ClkHz / Baud: 12 MHz / 115200
  parameter [23:0] GapCycles = 24'd6000000,  // between UART reports
  parameter        LedActiveLow = 1'b0
) (
  input  wire clk_i,
  input  wire rst_ni,       // button or pull-up; power-on reset is internal
  output wire led_pass_o,
  output wire led_fail_o,
  output wire led_run_o,
  output wire uart_tx_o
);

  localparam [4:0] MsgLast = 5'd28;          // "PASS " + 8 + " " + 6 + " " + 6 + CR LF

  // Reset: power-on counter (iCE40 flip-flops configure to 0) and the
  // synchronized reset pin, registered into one internal active-low reset.
  logic [3:0] por_q = 4'd0;
  logic [3:0] por_d;
  logic [1:0] pin_q = 2'd0;
  logic [1:0] pin_d;
  logic       rst_q = 1'b0;
  logic       rst_d;
  assign por_d = por_q + {3'd0, ~por_q[3]};
  assign pin_d = {pin_q[0], rst_ni};
  assign rst_d = por_q[3] & pin_q[1];
  always_ff @(posedge clk_i) begin
    por_q <= por_d;
    pin_q <= pin_d;
    rst_q <= rst_d;
  end

  // Stimulus and run state.
  logic [31:0] lfsr_q, lfsr_d, lfsr_step;
  logic        run_q, run_d, done_q, done_d;
  logic [23:0] cyc_q, cyc_d;
  logic        have_q, have_d;
  logic [1:0]  hop_q, hop_d, hsrc_q, hsrc_d;
  logic [41:0] haddr_q, haddr_d;
  logic [31:0] sig_q, sig_d;
  logic [23:0] nreq_q, nreq_d, ninv_q, ninv_d;

  logic [31:0] x1, x2;
  assign x1 = lfsr_q ^ {lfsr_q[18:0], 13'd0};
  assign x2 = x1 ^ {17'd0, x1[31:17]};
  assign lfsr_step = x2 ^ {x2[26:0], 5'd0};

  logic       gen, wild;
  logic [2:0] op_sel, set_sel, tag_sel;
  logic [3:0] slot, wild_sel;
  logic [1:0] f_op, f_src;
  logic [30:0] f_hi;
  logic [41:0] f_addr;
  assign gen = lfsr_q[3:2] != 2'd0;
  assign op_sel = lfsr_q[6:4];
  assign f_src = lfsr_q[8:7];
  assign slot = lfsr_q[12:9];
  assign set_sel = lfsr_q[15:13];
  assign tag_sel = lfsr_q[18:16];
  assign wild_sel = lfsr_q[22:19];
  assign wild = wild_sel == 4'd0;
  assign f_op = op_sel[2] == 1'b0 ? 2'd0 : op_sel[1] == 1'b0 ? 2'd2 : op_sel[0] == 1'b0 ? 2'd1 : 2'd3;
  assign f_hi = wild ? {lfsr_q[31:23], 22'h15a5a5} : {tag_sel, 25'h1b5e0c3, tag_sel};
  assign f_addr = {f_hi, set_sel, 4'b1001, slot};

  // The directory under test.
  logic        req_valid, req_ready, inv_valid, inv_ready, req_acc, inv_hs;
  logic [1:0]  req_op, req_src;
  logic [41:0] req_addr, inv_addr;
  logic [3:0]  inv_mask;
  assign req_valid = run_q & (have_q | gen);
  assign req_op = have_q ? hop_q : f_op;
  assign req_src = have_q ? hsrc_q : f_src;
  assign req_addr = have_q ? haddr_q : f_addr;
  assign inv_ready = run_q & (lfsr_q[1:0] != 2'd0);
  assign req_acc = req_valid & req_ready;
  assign inv_hs = inv_valid & inv_ready;

  `REC_DIR u_dir (
    .clk_i       (clk_i),
    .rst_ni      (rst_q),
    .home_i      (Home),
    .req_valid_i (req_valid),
    .req_ready_o (req_ready),
    .req_op_i    (req_op),
    .req_addr_i  (req_addr),
    .req_src_i   (req_src),
    .inv_valid_o (inv_valid),
    .inv_ready_i (inv_ready),
    .inv_addr_o  (inv_addr),
    .inv_mask_o  (inv_mask)
  );

  // CRC-32 MISR over {address, mask} of each accepted INV.
  logic [31:0] inv_word, sig_shift;
  assign inv_word = inv_addr[31:0] ^ {inv_mask, 18'd0, inv_addr[41:32]};
  assign sig_shift = {sig_q[30:0], 1'b0} ^ (sig_q[31] ? 32'h04c1_1db7 : 32'h0);

  always_comb begin
    lfsr_d = lfsr_q;
    run_d = run_q;
    done_d = done_q;
    cyc_d = cyc_q;
    have_d = have_q;
    hop_d = hop_q;
    hsrc_d = hsrc_q;
    haddr_d = haddr_q;
    sig_d = sig_q;
    nreq_d = nreq_q;
    ninv_d = ninv_q;
    if (run_q) begin
      lfsr_d = lfsr_step;
      cyc_d = cyc_q + 24'd1;
      if (cyc_q == RunCycles - 24'd1) begin
        run_d = 1'b0;
        done_d = 1'b1;
      end
      have_d = req_valid & ~req_acc;
      hop_d = req_op;
      hsrc_d = req_src;
      haddr_d = req_addr;
      if (req_acc) nreq_d = nreq_q + 24'd1;
      if (inv_hs) begin
        ninv_d = ninv_q + 24'd1;
        sig_d = sig_shift ^ inv_word;
      end
    end
  end

  logic match;
  assign match = (sig_q == ExpSig) & (nreq_q == ExpReqs) & (ninv_q == ExpInvs);
  assign led_pass_o = LedActiveLow ^ (done_q & match);
  assign led_fail_o = LedActiveLow ^ (done_q & ~match);
  assign led_run_o = LedActiveLow ^ run_q;

  // UART report: one 10-bit frame {stop, char, start} shifted out LSB first.
  // The hex digits leave a shift register (dig_q, most significant nibble
  // first) and the next character is registered (ch_q): it is stable for a
  // whole frame before it is loaded, so no wide multiplexer lies between
  // the report state and the transmit register (timing).
  logic        tx_busy_q, tx_busy_d;
  logic [4:0]  tx_idx_q, tx_idx_d, ch_idx;
  logic [3:0]  tx_bit_q, tx_bit_d;
  logic [15:0] tx_baud_q, tx_baud_d;
  logic [9:0]  tx_shift_q, tx_shift_d, tx_shift_nx;
  logic [23:0] gap_q, gap_d;
  logic [79:0] dig_q, dig_d;
  logic [7:0]  ch_q, ch, hex;
  logic [3:0]  nib;
  logic        ch_hex;
  logic [79:0] dig_sh;
  assign dig_sh = {dig_q[75:0], 4'd0};
  assign ch_idx = tx_idx_q + 5'd1;
  assign nib = dig_q[79:76];
  assign hex = nib < 4'd10 ? {4'h3, nib} : 8'h57 + {4'h0, nib};
  assign tx_shift_nx = {1'b1, tx_shift_q[9:1]};
  assign uart_tx_o = tx_shift_q[0];

  // Character ch_idx of "PASS ssssssss rrrrrr iiiiii\r\n" (or FAIL).
  always_comb begin
    ch_hex = 1'b0;
    case (ch_idx)
      5'd1: ch = 8'h41;                               // A
      5'd2: ch = match ? 8'h53 : 8'h49;               // S / I
      5'd3: ch = match ? 8'h53 : 8'h4c;               // S / L
      5'd4, 5'd13, 5'd20: ch = 8'h20;
      5'd27: ch = 8'h0d;
      5'd28: ch = 8'h0a;
      default: begin
        ch = hex;
        ch_hex = 1'b1;
      end
    endcase
  end

  always_comb begin
    tx_busy_d = tx_busy_q;
    tx_idx_d = tx_idx_q;
    tx_bit_d = tx_bit_q;
    tx_baud_d = tx_baud_q;
    tx_shift_d = tx_shift_q;
    gap_d = gap_q;
    dig_d = dig_q;
    if (!tx_busy_q) begin
      if (done_q && gap_q == GapCycles) begin
        tx_busy_d = 1'b1;
        tx_idx_d = 5'd0;
        tx_bit_d = 4'd0;
        tx_baud_d = 16'd0;
        tx_shift_d = {1'b1, match ? 8'h50 : 8'h46, 1'b0};  // P / F
        gap_d = 24'd0;
        dig_d = {sig_q, nreq_q, ninv_q};
      end else if (done_q) begin
        gap_d = gap_q + 24'd1;
      end
    end else if (tx_baud_q == BaudDiv - 16'd1) begin
      tx_baud_d = 16'd0;
      if (tx_bit_q == 4'd9) begin
        tx_bit_d = 4'd0;
        if (tx_idx_q == MsgLast) begin
          tx_busy_d = 1'b0;
          tx_idx_d = 5'd0;
        end else begin
          tx_idx_d = ch_idx;
          tx_shift_d = {1'b1, ch_q, 1'b0};
          if (ch_hex) dig_d = dig_sh;
        end
      end else begin
        tx_bit_d = tx_bit_q + 4'd1;
        tx_shift_d = tx_shift_nx;
      end
    end else begin
      tx_baud_d = tx_baud_q + 16'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_q) begin
    if (!rst_q) begin
      lfsr_q <= Seed;
      run_q <= 1'b1;
      done_q <= 1'b0;
      cyc_q <= 24'd0;
      have_q <= 1'b0;
      hop_q <= 2'd0;
      hsrc_q <= 2'd0;
      haddr_q <= 42'd0;
      sig_q <= 32'hffff_ffff;
      nreq_q <= 24'd0;
      ninv_q <= 24'd0;
      tx_busy_q <= 1'b0;
      tx_idx_q <= 5'd0;
      tx_bit_q <= 4'd0;
      tx_baud_q <= 16'd0;
      tx_shift_q <= 10'h3ff;
      gap_q <= GapCycles;
      dig_q <= 80'd0;
      ch_q <= 8'd0;
    end else begin
      lfsr_q <= lfsr_d;
      run_q <= run_d;
      done_q <= done_d;
      cyc_q <= cyc_d;
      have_q <= have_d;
      hop_q <= hop_d;
      hsrc_q <= hsrc_d;
      haddr_q <= haddr_d;
      sig_q <= sig_d;
      nreq_q <= nreq_d;
      ninv_q <= ninv_d;
      tx_busy_q <= tx_busy_d;
      tx_idx_q <= tx_idx_d;
      tx_bit_q <= tx_bit_d;
      tx_baud_q <= tx_baud_d;
      tx_shift_q <= tx_shift_d;
      gap_q <= gap_d;
      dig_q <= dig_d;
      ch_q <= ch;
    end
  end

endmodule
`default_nettype wire
