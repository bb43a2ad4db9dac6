# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_2.gp` here to redraw cost_vs_n_polynomial_d_15_degree_2.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_15_degree_2.svg'
set title 'time against n: polynomial d=15 degree=2 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 202.25333992879106, graph 0 to 202.25333992879106, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 202' at 202.25333992879106, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 189.90121163523088, graph 0 to 189.90121163523088, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 190' at 189.90121163523088, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 5.723350000000001e-05
160 0.00018109799999999998
400 0.0011834035000000001
800 0.0050508445
1600 0.0672552245
3200 0.22441852899999998
6400 1.1580176949999998
EOD
$line1 << EOD
80 3.3019000000000004e-05
160 0.000116971
400 0.0009862105000000001
800 0.006073439999999999
1600 0.0650444195
3200 0.2721472975
6400 1.951538655
EOD
$line2 << EOD
80 0.0001237835
160 0.00023081650000000002
400 0.0005841955
800 0.0012167610000000002
1600 0.00278563
3200 0.0061917840000000005
6400 0.011978315500000001
EOD
$line3 << EOD
80 0.0001183595
160 0.00015249300000000002
400 0.00031130899999999996
800 0.0006667464999999999
1600 0.001821837
3200 0.0023329685
6400 0.004464135
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
