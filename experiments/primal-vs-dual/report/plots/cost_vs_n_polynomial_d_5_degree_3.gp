# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_3.gp` here to redraw cost_vs_n_polynomial_d_5_degree_3.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_n_polynomial_d_5_degree_3.svg'
set title 'time against n: polynomial d=5 degree=3 (cubic)'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 116.06410570384242, graph 0 to 116.06410570384242, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'crossover n ≈ 116' at 116.06410570384242, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 140.55945293117108, graph 0 to 140.55945293117108, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover n ≈ 141' at 140.55945293117108, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
80 5.30295e-05
160 0.00016524349999999998
400 0.001211593
800 0.0040031775
1600 0.023778952
3200 0.2252597665
6400 0.999412873
EOD
$line1 << EOD
80 2.87385e-05
160 9.8197e-05
400 0.000899855
800 0.004678387000000001
1600 0.03127996399999999
3200 0.2471572385
6400 1.7321605955
EOD
$line2 << EOD
80 5.7646500000000004e-05
160 0.00015376099999999998
400 0.00031210849999999997
800 0.000493045
1600 0.0010332005
3200 0.0024308884999999997
6400 0.005035802
EOD
$line3 << EOD
80 6.37905e-05
160 8.1753e-05
400 0.00011400599999999999
800 0.000158157
1600 0.0003383335
3200 0.0006792305
6400 0.001334092
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=50, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual kernel_ridge(lambda=0.001)', \
     $line2 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=50, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'primal primal_ridge(lambda=0.001)'
