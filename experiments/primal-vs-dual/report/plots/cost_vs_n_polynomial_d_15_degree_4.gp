# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_4.gp` here to redraw cost_vs_n_polynomial_d_15_degree_4.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_15_degree_4.svg'
set title 'time against n: polynomial d=15 degree=4 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 5828.763231798663, graph 0 to 5828.763231798663, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 5.83e+03' at 5828.763231798663, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 8.0912e-05
160 0.000228092
400 0.0015452935
800 0.0066403055
1600 0.023323708
3200 0.23696428599999997
6400 1.035115839
EOD
$line1 << EOD
80 6.809249999999999e-05
160 0.00017537800000000001
400 0.00126631
800 0.0070989945
1600 0.032332864
3200 0.2585612785
6400 1.9429268425000001
EOD
$line2 << EOD
80 0.005436173
160 0.0107440005
400 0.024123148
800 0.07075137649999999
1600 0.19698373
3200 0.4402662385
6400 0.939817677
EOD
$line3 << EOD
80 0.435157682
160 0.4551478175
400 0.5635848295
800 0.697186429
1600 0.861071326
3200 1.378190634
6400 2.496507746
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
