# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_3.gp` here to redraw cost_vs_n_polynomial_d_15_degree_3.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_15_degree_3.svg'
set title 'time against n: polynomial d=15 degree=3 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 1095.3144269579168, graph 0 to 1095.3144269579168, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 1.1e+03' at 1095.3144269579168, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 1587.489312255912, graph 0 to 1587.489312255912, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 1.59e+03' at 1587.489312255912, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 8.811299999999999e-05
160 0.000195216
400 0.001263185
800 0.005255672500000001
1600 0.0317105565
3200 0.22797842225
6400 1.3996283895000001
EOD
$line1 << EOD
80 3.6003499999999995e-05
160 0.000113832
400 0.0009978029999999998
800 0.006041836
1600 0.03736798375
3200 0.28873399325000004
6400 2.0802384475
EOD
$line2 << EOD
80 0.001089588
160 0.0015273255000000001
400 0.0044247005
800 0.0084578015
1600 0.01786375975
3200 0.056291744000000005
6400 0.197825217
EOD
$line3 << EOD
80 0.006610618
160 0.007548927
400 0.013190630000000002
800 0.019796198
1600 0.03686342975
3200 0.07937825600000001
6400 0.1258125905
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
