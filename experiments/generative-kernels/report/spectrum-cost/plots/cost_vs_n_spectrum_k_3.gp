# kexp plot; run `gnuplot cost_vs_n_spectrum_k_3.gp` here to redraw cost_vs_n_spectrum_k_3.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_3.svg'
set title 'time against n: spectrum k=3 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'primal_ridge: λ = 0.1.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'The primal map''s dimension D = 8000 is above every n drawn.' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('200' 200, '400' 400, '800' 800, '1600' 1600)
set logscale x
set logscale y
$line0 << EOD
200 0.03304343283333334 0.020617141 0.071062648
400 0.09027617066666667 0.08495549999999999 0.105569197
800 0.460362167 0.428241454 0.49423567599999996
1600 1.9924587814999999 1.979696079 2.0023139509999996
EOD
$line1 << EOD
200 3.1123843119999997 2.958602256 3.2579443
400 4.005348837 3.2249568980000003 4.589476877
800 4.729288852833333 3.6152349110000004 5.557535335000001
1600 6.435098213666667 6.250057026 6.672647692
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
