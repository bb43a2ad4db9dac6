# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_4.gp` here to redraw cost_vs_n_polynomial_d_10_degree_4.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_10_degree_4.svg'
set title 'time against n: polynomial d=10 degree=4 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 1271.6614108105791, graph 0 to 1271.6614108105791, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 1.27e+03' at 1271.6614108105791, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 2047.680204317782, graph 0 to 2047.680204317782, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 2.05e+03' at 2047.680204317782, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 8.313649999999999e-05
160 0.00021727550000000002
400 0.0014645155
800 0.0055927814999999995
1600 0.03248323375
3200 0.236331532
6400 1.243004808
EOD
$line1 << EOD
80 3.41405e-05
160 0.000122798
400 0.001129302
800 0.006333506
1600 0.037964337
3200 0.2891027895
6400 2.0866274755000003
EOD
$line2 << EOD
80 0.001630596
160 0.002397065
400 0.006048417
800 0.0120848685
1600 0.0221735655
3200 0.081020478
6400 0.1948327695
EOD
$line3 << EOD
80 0.05005686375000001
160 0.01287992025
400 0.023420383000000003
800 0.0342311305
1600 0.06235404
3200 0.117786882
6400 0.18859906049999997
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
