# kexp plot; run `gnuplot cost_vs_n_polynomial_d_10_degree_3.gp` here to redraw cost_vs_n_polynomial_d_10_degree_3.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_10_degree_3.svg'
set title 'time against n: polynomial d=10 degree=3 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 477.66731540895324, graph 0 to 477.66731540895324, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 478' at 477.66731540895324, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 483.80606746217904, graph 0 to 483.80606746217904, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 484' at 483.80606746217904, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 0.00010948150000000001
160 0.000200454
400 0.0012043940000000001
800 0.005384581500000001
1600 0.029116886
3200 0.220493901
6400 1.1637827782499999
EOD
$line1 << EOD
80 4.3167e-05
160 0.0001170415
400 0.0009469365
800 0.0060443505
1600 0.036875234
3200 0.26770760050000003
6400 1.95030674125
EOD
$line2 << EOD
80 0.000397577
160 0.0005950710000000001
400 0.0014069005000000002
800 0.00342769
1600 0.0064586755
3200 0.0128863405
6400 0.02936444775
EOD
$line3 << EOD
80 0.0007472684999999999
160 0.00070041
400 0.001324239
800 0.0024904215
1600 0.0043062685
3200 0.008397192
6400 0.01678375
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
