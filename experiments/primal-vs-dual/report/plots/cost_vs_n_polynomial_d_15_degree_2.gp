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
set arrow 1 from 202.58800207929514, graph 0 to 202.58800207929514, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 203' at 202.58800207929514, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 198.89074045585278, graph 0 to 198.89074045585278, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 199' at 198.89074045585278, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 6.40805e-05
160 0.0001643325
400 0.0012330960000000001
800 0.0042924880000000006
1600 0.026754222
3200 0.2300286975
6400 1.2574397915
EOD
$line1 << EOD
80 3.8913e-05
160 0.00011550799999999999
400 0.0010255989999999999
800 0.004956478
1600 0.035439006
3200 0.2540640235
6400 1.9447206845
EOD
$line2 << EOD
80 0.000132409
160 0.0002247475
400 0.0005000905
800 0.001038914
1600 0.002785862
3200 0.006439795
6400 0.0146711425
EOD
$line3 << EOD
80 0.0001255385
160 0.0001663795
400 0.0003177125
800 0.0005643320000000001
1600 0.001443291
3200 0.0035353355000000003
6400 0.01043531
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
