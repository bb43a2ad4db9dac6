# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_2.gp` here to redraw cost_vs_n_polynomial_d_10_degree_2.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_10_degree_2.svg'
set title 'time against n: polynomial d=10 degree=2 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 142.0678233809622, graph 0 to 142.0678233809622, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 142' at 142.0678233809622, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 100.28352395274212, graph 0 to 100.28352395274212, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 100' at 100.28352395274212, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 5.44315e-05
160 0.00015876399999999999
400 0.0011280625000000002
800 0.0039081395
1600 0.0281556595
3200 0.221143388
6400 0.934614207
EOD
$line1 << EOD
80 3.2093e-05
160 0.0001020035
400 0.0009117235
800 0.0046766575000000005
1600 0.035906027
3200 0.25121351550000004
6400 1.6992206515000001
EOD
$line2 << EOD
80 7.694549999999998e-05
160 0.00014778650000000002
400 0.00039122249999999994
800 0.0006530595
1600 0.0014131205
3200 0.003333588
6400 0.006324712
EOD
$line3 << EOD
80 4.24435e-05
160 5.72315e-05
400 0.000127201
800 0.0002027285
1600 0.0004952085
3200 0.001166691
6400 0.0017875389999999999
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
