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
set arrow 1 from 4749.24335796069, graph 0 to 4749.24335796069, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 4.75e+03' at 4749.24335796069, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 7.6141e-05
160 0.000244402
400 0.0014730869999999999
800 0.005612112999999999
1600 0.04564699324999999
3200 0.311724889
6400 1.6101047194999998
EOD
$line1 << EOD
80 3.61095e-05
160 0.0001287445
400 0.0010732605
800 0.006084958
1600 0.049913359000000004
3200 0.368913949
6400 2.4370564285
EOD
$line2 << EOD
80 0.00798995675
160 0.012683692
400 0.033299491
800 0.0912339715
1600 0.19018714600000003
3200 0.45510202350000006
6400 1.2097370200000002
EOD
$line3 << EOD
80 0.896319145
160 0.8454957375000001
400 0.9909381045000001
800 1.1400876525
1600 1.4243916630000002
3200 2.042333545
6400 3.2529367165
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
