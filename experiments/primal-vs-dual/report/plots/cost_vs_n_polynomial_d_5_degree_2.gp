# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_2.gp` here to redraw cost_vs_n_polynomial_d_5_degree_2.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_5_degree_2.svg'
set title 'time against n: polynomial d=5 degree=2 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
80 5.52885e-05
160 0.000178448
400 0.001115356
800 0.0048952595000000005
1600 0.02960740425
3200 0.217304756
6400 1.169796056
EOD
$line1 << EOD
80 2.9881999999999996e-05
160 0.0001100885
400 0.000904251
800 0.0057783365
1600 0.037250354250000006
3200 0.260379474
6400 2.2139542734999997
EOD
$line2 << EOD
80 5.5194e-05
160 7.59445e-05
400 0.00017579200000000003
800 0.00032472550000000005
1600 0.0006730589999999999
3200 0.0013180785
6400 0.0028960534999999997
EOD
$line3 << EOD
80 1.34355e-05
160 1.7959499999999996e-05
400 3.18395e-05
800 5.51045e-05
1600 0.0001037175
3200 0.0002016665
6400 0.00041277
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
