# figure-size: 1100,500
# STC's figure (make figures, scripts/figures.py sets the terminal and
# datafile): epoch transitions and sleeps per variant (NV, ES, AB, MB) per
# bench program (results/stc.csv: four rows a program, one a variant, in
# that order), a group of bars a program.
set datafile separator comma
set datafile columnheaders
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top right
set xrange [-1:20]
set offsets 0, 0, graph 0.1, 0
xpos(v) = int(column(0) / 4) * 5 + v
sel(c, v) = (strcol(2) eq v) ? column(c) : NaN
set multiplot layout 1,2 title "STC: per variant and program (scripts/stc-bench.py, cohmodel stc-system, 8 CUs, N 4, SEB 12)"
do for [c in "3 4"] {
  set title (c eq "3" ? "epoch transitions" : "sleeps")
  set ylabel (c eq "3" ? "transitions" : "sleeps")
  plot datafile using (xpos(1.5)):(strcol(2) eq "NV" ? 0 : NaN):xtic(strcol(1)) with points pt -1 notitle, \
    for [i = 1:4] datafile using (xpos(i - 1)):(sel(c + 0, word("NV ES AB MB", i))) \
    with boxes title word("NV ES AB MB", i)
}
unset multiplot
