# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_2.gp` here to redraw cost_vs_n_polynomial_d_5_degree_2.svg
set terminal svg size 1000,752 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_2.svg'
set title 'time against n: polynomial d=5 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1649 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1356 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1064 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.0771 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0479 left font ',12'
set label 105 'The primal map''s dimension D = 21 is below every n drawn.' at screen 0.01, screen 0.0186 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 5.52885e-05 5.2968999999999994e-05 0.000386111
160 0.000178448 0.000170291 0.000248931
400 0.001115356 0.001070466 0.0013506850000000001
800 0.0048952595000000005 0.004585787 0.005756792
1600 0.02960740425 0.028812721 0.031778221
3200 0.217304756 0.21662777900000002 0.237086035
6400 1.169796056 0.995270198 1.341547671
EOD
$line1 << EOD
80 2.9881999999999996e-05 2.8746e-05 0.000741483
160 0.0001100885 0.000102364 0.000283256
400 0.000904251 0.000847904 0.0014161789999999998
800 0.0057783365 0.005585747 0.007566415
1600 0.037250354250000006 0.036380688 0.038913381
3200 0.260379474 0.254549041 0.286775503
6400 2.2139542734999997 2.0473848469999996 2.376691455
EOD
$line2 << EOD
80 5.5194e-05 3.8814e-05 0.000181182
160 7.59445e-05 7.409099999999999e-05 0.000127091
400 0.00017579200000000003 0.000172506 0.000263519
800 0.00032472550000000005 0.00031938400000000003 0.000521506
1600 0.0006730589999999999 0.000627167 0.001047835
3200 0.0013180785 0.0012742309999999998 0.002955211
6400 0.0028960534999999997 0.002792592 0.006830401999999999
EOD
$line3 << EOD
80 1.34355e-05 1.2664000000000001e-05 0.0009491769999999999
160 1.7959499999999996e-05 1.7542e-05 4.4234000000000004e-05
400 3.18395e-05 3.1559e-05 9.046e-05
800 5.51045e-05 5.3932000000000005e-05 0.000206108
1600 0.0001037175 0.00010208299999999999 0.000505347
3200 0.0002016665 0.00018956900000000003 0.0017744170000000001
6400 0.00041277 0.000400677 0.004457956
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
