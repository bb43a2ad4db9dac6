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
80 8.84385e-05
160 0.0001611525
400 0.001300427
800 0.0042244405
1600 0.023511920999999998
3200 0.21395079849999998
6400 1.0223218840000001
EOD
$line1 << EOD
80 8.0206e-05
160 0.000105629
400 0.000983226
800 0.0048634095
1600 0.031604550999999995
3200 0.245341037
6400 1.7203366055
EOD
$line2 << EOD
80 6.3455e-05
160 7.63345e-05
400 0.000187386
800 0.000304597
1600 0.0005787285
3200 0.0010658644999999999
6400 0.002369511
EOD
$line3 << EOD
80 4.909949999999999e-05
160 2.68855e-05
400 5.3285e-05
800 6.56235e-05
1600 0.00013740600000000002
3200 0.0002379715
6400 0.000451974
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
