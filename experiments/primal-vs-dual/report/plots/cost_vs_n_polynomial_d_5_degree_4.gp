# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_4.gp` here to redraw cost_vs_n_polynomial_d_5_degree_4.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_5_degree_4.svg'
set title 'time against n: polynomial d=5 degree=4 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 227.15152684696844, graph 0 to 227.15152684696844, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 227' at 227.15152684696844, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 194.5425539064133, graph 0 to 194.5425539064133, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 195' at 194.5425539064133, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 9.50475e-05
160 0.0001796485
400 0.001497333
800 0.0042418715
1600 0.0266460445
3200 0.23229211900000002
6400 1.001158746
EOD
$line1 << EOD
80 6.52535e-05
160 0.00010386100000000001
400 0.0009749685000000001
800 0.0047100635
1600 0.0323290925
3200 0.2475593415
6400 1.7089421605
EOD
$line2 << EOD
80 0.0001429995
160 0.0002801555
400 0.0007306820000000001
800 0.0012291245
1600 0.0029629159999999995
3200 0.0057704044999999995
6400 0.012295457499999999
EOD
$line3 << EOD
80 0.00012929899999999998
160 0.000140401
400 0.000320802
800 0.0005181775
1600 0.001127637
3200 0.0021979434999999997
6400 0.004187609
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
