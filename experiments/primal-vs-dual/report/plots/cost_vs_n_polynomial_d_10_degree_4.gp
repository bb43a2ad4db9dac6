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
set arrow 1 from 1178.1252095578648, graph 0 to 1178.1252095578648, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 1.18e+03' at 1178.1252095578648, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 1834.6890661206912, graph 0 to 1834.6890661206912, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 1.83e+03' at 1834.6890661206912, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 6.6549e-05
160 0.00019227399999999998
400 0.0012238365
800 0.005508401
1600 0.0287956845
3200 0.236522464
6400 1.120154474
EOD
$line1 << EOD
80 4.5268e-05
160 0.00012108150000000001
400 0.001015414
800 0.006046555
1600 0.0355345045
3200 0.254295196
6400 1.7862947925000001
EOD
$line2 << EOD
80 0.0010243275
160 0.0021303165
400 0.0054858285
800 0.0092652055
1600 0.0190875255
3200 0.08013759250000001
6400 0.2811941995
EOD
$line3 << EOD
80 0.0134008915
160 0.0118089525
400 0.017277945
800 0.02697641
1600 0.0469562105
3200 0.081920648
6400 0.16973267749999998
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
