# kexp plot; run `gnuplot test_accuracy_vs_solver.c.gp` here to redraw test_accuracy_vs_solver.c.svg
set terminal svg size 1000,669 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_solver.c.svg'
set title 'test accuracy against c'
set xlabel 'c (solver.c)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0209 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.01' 0.01, '0.1' 0.1, '1' 1, '10' 10, '100' 100)
set logscale x
$line0 << EOD
0.01 0.9776 0.9776 0.9776
0.1 0.98 0.98 0.98
1 0.9788 0.9788 0.9788
10 0.974 0.974 0.974
100 0.9612 0.9612 0.9612
EOD
$line1 << EOD
0.01 0.9796 0.9796 0.9796
0.1 0.98 0.98 0.98
1 0.9796 0.9796 0.9796
10 0.972 0.972 0.972
100 0.9572 0.9572 0.9572
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian · svc shrinking=true (dual)'
