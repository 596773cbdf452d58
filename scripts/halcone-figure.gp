# figure-size: 1100,500
# HALCONE's figure (make figures, scripts/figures.py sets the terminal and
# datafile): the checker's violations (stale, reorder, future loads) under
# the paper's rules and the safe ones per program (results/halcone.csv: two
# rows a program, paper then safe), stale and reorder stacked.
set datafile separator comma
set datafile columnheaders
set style fill solid 0.8 border -1
set boxwidth 0.4
set grid ytics
set key top right
set offsets 0.6, 0.6, graph 0.1, 0
set xtics rotate by -45 scale 0
set xlabel "program (cohmodel halcone-gen: xtreme1-3, random --ops 400 --lines 4 --seed S)"
set ylabel "violations reported by the checker"
set title "HALCONE: checker violations, paper rules against safe rules (cohmodel halcone-system)"
x(o) = int(column(0) / 2) + o
p(c) = (strcol(2) eq "paper") ? column(c) : NaN
s(c) = (strcol(2) eq "safe") ? column(c) : NaN
plot datafile using (x(0)):(strcol(2) eq "paper" ? 0 : NaN):xtic(strcol(1)) with points pt -1 notitle, \
     datafile using (x(-0.2)):(p(7)) with boxes lc rgb "#d55e00" title "paper rules: stale + reorder + future", \
     datafile using (x(-0.2)):(p(4)) with boxes lc rgb "#f0b080" title "paper rules: stale", \
     datafile using (x(0.2)):(s(7)) with boxes lc rgb "#0072b2" title "safe rules (all)", \
     datafile using (x(0.2)):(s(7)) with points pt 7 lc rgb "#0072b2" notitle
