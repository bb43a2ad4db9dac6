# kexp plot; run `gnuplot test_accuracy_vs_solver.c.gp` here to redraw test_accuracy_vs_solver.c.svg
set terminal svg size 1000,669 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_solver.c.svg'
set title 'test accuracy against c: gaussian'
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
0.01 0.974 0.974 0.974
0.1 0.9784 0.9784 0.9784
1 0.978 0.978 0.978
10 0.9708 0.9708 0.9708
100 0.9596 0.9596 0.9596
EOD
$line1 << EOD
0.01 0.9788 0.9788 0.9788
0.1 0.9784 0.9784 0.9784
1 0.98 0.98 0.98
10 0.9736 0.9736 0.9736
100 0.9644 0.9644 0.9644
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'svc shrinking=true (dual)'
