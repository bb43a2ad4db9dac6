# kexp plot; run `gnuplot cost_vs_D_cubic_d_10__n_2000__noise_0.1__standardize_false__test_fraction_0.2.gp` here to redraw cost_vs_D_cubic_d_10__n_2000__noise_0.1__standardize_false__test_fraction_0.2.svg
set terminal svg size 860,520 dynamic noenhanced font 'sans,11'
set output 'cost_vs_D_cubic_d_10__n_2000__noise_0.1__standardize_false__test_fraction_0.2.svg'
set title 'time against the feature dimension D: cubic d=10, n=2000, noise=0.1, standardize=false, test_fraction=0.2'
set xlabel 'D (feature dimension of the kernel''s map)'
set ylabel 'time: Gram or features + fit + predict (s)'
set key below
set grid
set format x '%g'
set format y '%g'
set logscale x
set logscale y
set arrow 1 from 1600, graph 0 to 1600, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 1 'D = n = 1600' at 1600, graph 0.95 left offset 0.5,0 textcolor rgb '#555555'
set arrow 2 from 1494.3565575343796, graph 0 to 1494.3565575343796, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover D ≈ 1494' at 1494.3565575343796, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
set arrow 3 from 1454.7364397206136, graph 0 to 1454.7364397206136, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 3 'crossover D ≈ 1455' at 1454.7364397206136, graph 0.83 left offset 0.5,0 textcolor rgb '#555555'
set arrow 4 from 1210.1777296190392, graph 0 to 1210.1777296190392, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 4 'crossover D ≈ 1210' at 1210.1777296190392, graph 0.77 left offset 0.5,0 textcolor rgb '#555555'
set arrow 5 from 1141.9103390626494, graph 0 to 1141.9103390626494, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 5 'crossover D ≈ 1142' at 1141.9103390626494, graph 0.71 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
11 0.030099873
66 0.016951599999999997
286 0.01185363
1001 0.014684098000000001
3003 0.014513161
EOD
$line1 << EOD
11 0.034685465
66 0.020227957
286 0.016335365
1001 0.017543009
3003 0.016110679
EOD
$line2 << EOD
11 0.074094418
66 0.073552405
286 0.045695679
1001 0.052029414
3003 0.047974258000000006
EOD
$line3 << EOD
11 0.411292871
66 0.5656120370000001
286 0.419182884
1001 0.39392227300000004
3003 0.413627635
EOD
$line4 << EOD
11 0.00032612799999999996
66 0.00068704
286 0.0015385099999999999
1001 0.006826133
3003 0.055105791
EOD
$line5 << EOD
11 0.00029793699999999996
66 0.000868091
286 0.0021852900000000003
1001 0.008074146999999999
3003 0.07252990000000001
EOD
$line6 << EOD
11 0.000831137
66 0.002760382
286 0.009952528
1001 0.036034468
3003 0.278638278
EOD
$line7 << EOD
11 0.014324397
66 0.021665884
286 0.085456861
1001 0.31223069299999995
3003 2.278409623
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=1, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=10, tolerance=0)', \
     $line2 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=100, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=1000, tolerance=0)', \
     $line4 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=1, tolerance=0)', \
     $line5 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=10, tolerance=0)', \
     $line6 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=100, tolerance=0)', \
     $line7 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=1000, tolerance=0)'
