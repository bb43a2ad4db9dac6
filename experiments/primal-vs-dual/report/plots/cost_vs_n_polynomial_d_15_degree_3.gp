# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_3.gp` here to redraw cost_vs_n_polynomial_d_15_degree_3.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_15_degree_3.svg'
set title 'time against n: polynomial d=15 degree=3 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 1040.4228266369942, graph 0 to 1040.4228266369942, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 1.04e+03' at 1040.4228266369942, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 1479.5076158335592, graph 0 to 1479.5076158335592, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 1.48e+03' at 1479.5076158335592, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 8.47575e-05
160 0.000190786
400 0.0014088045
800 0.004504165
1600 0.0269925595
3200 0.23838331149999997
6400 1.1643730825
EOD
$line1 << EOD
80 4.2979500000000004e-05
160 0.00012676
400 0.0011790195
800 0.0053397595
1600 0.033338347000000004
3200 0.25640589999999996
6400 1.911205733
EOD
$line2 << EOD
80 0.0009488345
160 0.0013965470000000002
400 0.0039939295
800 0.006745479
1600 0.013930586000000002
3200 0.058205137500000004
6400 0.185230053
EOD
$line3 << EOD
80 0.0056350775
160 0.006722233500000001
400 0.0112244955
800 0.0165025725
1600 0.028876497
3200 0.058171521500000004
6400 0.1195378175
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
