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
set arrow 1 from 491.1120453402542, graph 0 to 491.1120453402542, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 491' at 491.1120453402542, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 490.5711598242628, graph 0 to 490.5711598242628, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 491' at 490.5711598242628, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 5.91295e-05
160 0.00017861249999999998
400 0.0011005865
800 0.0042635585
1600 0.025302212499999997
3200 0.2295051775
6400 1.0579231115
EOD
$line1 << EOD
80 3.3581e-05
160 0.0001073015
400 0.0008494799999999999
800 0.004808892
1600 0.031931696999999995
3200 0.2510642625
6400 1.7550322445000002
EOD
$line2 << EOD
80 0.000321503
160 0.0004938410000000001
400 0.0013203765
800 0.0027653645
1600 0.0055207
3200 0.010745321499999998
6400 0.024913613
EOD
$line3 << EOD
80 0.0005728695
160 0.0006209175
400 0.0012105269999999999
800 0.0020581935
1600 0.004322036
3200 0.0077790345
6400 0.016909407
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
