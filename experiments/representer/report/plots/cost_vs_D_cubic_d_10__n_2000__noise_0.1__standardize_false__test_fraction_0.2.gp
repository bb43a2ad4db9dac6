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
set arrow 2 from 2964.9338329266848, graph 0 to 2964.9338329266848, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 2 'crossover D ≈ 2965' at 2964.9338329266848, graph 0.8899999999999999 left offset 0.5,0 textcolor rgb '#555555'
set arrow 3 from 2008.2921856606317, graph 0 to 2008.2921856606317, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 3 'crossover D ≈ 2008' at 2008.2921856606317, graph 0.83 left offset 0.5,0 textcolor rgb '#555555'
set arrow 4 from 1323.3581567079643, graph 0 to 1323.3581567079643, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 4 'crossover D ≈ 1323' at 1323.3581567079643, graph 0.77 left offset 0.5,0 textcolor rgb '#555555'
set arrow 5 from 1336.5364191387462, graph 0 to 1336.5364191387462, graph 1 nohead dashtype 2 lc rgb '#888888'
set label 5 'crossover D ≈ 1337' at 1336.5364191387462, graph 0.71 left offset 0.5,0 textcolor rgb '#555555'
$line0 << EOD
11 0.007857866
66 0.013736578
286 0.014537535
1001 0.016310818499999997
3003 0.065759876
EOD
$line1 << EOD
11 0.011111473
66 0.019908725999999998
286 0.022024178000000002
1001 0.0250376575
3003 0.07025195199999999
EOD
$line2 << EOD
11 0.0452684735
66 0.08565046399999998
286 0.096380905
1001 0.0909229975
3003 0.13295600100000002
EOD
$line3 << EOD
11 0.713715802
66 0.7627617019999999
286 0.762712971
1001 0.7490546995
3003 0.775315685
EOD
$line4 << EOD
11 0.00014256
66 0.000416098
286 0.002085827
1001 0.007844342
3003 0.06632786700000001
EOD
$line5 << EOD
11 0.000170744
66 0.000653698
286 0.003046524
1001 0.013496530500000001
3003 0.100398837
EOD
$line6 << EOD
11 0.000804381
66 0.0032387690000000003
286 0.013331754
1001 0.062746892
3003 0.394930311
EOD
$line7 << EOD
11 0.007143636
66 0.03228088899999999
286 0.110662423
1001 0.440168407
3003 3.436086098
EOD
plot $line0 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=1, tolerance=0)', \
     $line1 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=10, tolerance=0)', \
     $line2 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=100, tolerance=0)', \
     $line3 using 1:2 with linespoints title 'dual dual_gd(alpha=0, iterations=1000, tolerance=0)', \
     $line4 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=1, tolerance=0)', \
     $line5 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=10, tolerance=0)', \
     $line6 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=100, tolerance=0)', \
     $line7 using 1:2 with linespoints title 'primal primal_gd(alpha=0, iterations=1000, tolerance=0)'
