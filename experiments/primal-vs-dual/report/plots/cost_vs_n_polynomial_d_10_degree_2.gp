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
set arrow 1 from 137.75757896841495, graph 0 to 137.75757896841495, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 138' at 137.75757896841495, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 89.05672609532598, graph 0 to 89.05672609532598, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 89.1' at 89.05672609532598, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 6.7808e-05
160 0.000179245
400 0.001146123
800 0.0051647505
1600 0.0303389405
3200 0.20898292550000003
6400 1.1388047595000002
EOD
$line1 << EOD
80 3.10435e-05
160 0.0001126685
400 0.000958955
800 0.0060089185
1600 0.03694199825
3200 0.265817898
6400 2.000499214
EOD
$line2 << EOD
80 0.0001130435
160 0.0001557095
400 0.000358032
800 0.0007360685
1600 0.001549206
3200 0.003497513
6400 0.0073442295000000005
EOD
$line3 << EOD
80 3.5597000000000005e-05
160 5.3341e-05
400 0.00010705750000000001
800 0.000199189
1600 0.000412221
3200 0.0007873349999999999
6400 0.0016212120000000003
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
