# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_3.gp` here to redraw cost_vs_n_polynomial_d_5_degree_3.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_5_degree_3.svg'
set title 'time against n: polynomial d=5 degree=3 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
$line0 << EOD
80 8.5588e-05
160 0.000197253
400 0.0012246205
800 0.0052087995
1600 0.02969936025
3200 0.21909086
6400 1.17329273475
EOD
$line1 << EOD
80 4.235650000000001e-05
160 0.000118625
400 0.0009309305
800 0.0059645900000000005
1600 0.03831450725
3200 0.2715258465
6400 2.06079159325
EOD
$line2 << EOD
80 7.596449999999999e-05
160 0.000127622
400 0.00028231
800 0.0005446855
1600 0.0010540845
3200 0.002645891
6400 0.005628013
EOD
$line3 << EOD
80 4.12085e-05
160 4.1915e-05
400 8.16355e-05
800 0.00014656200000000004
1600 0.0002834515
3200 0.00056789
6400 0.0012429765
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
